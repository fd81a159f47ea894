"""A signed-in player's own NetrunnerDB decks: listed from NetrunnerDB's private API with their token, and the one
they pick stored as their list exactly as a fetched or pasted one (app/core/nrdb_decks.py writes it out,
app/services/decklists.py `submit` judges and stores it). The calls go through app/services/nrdb/decks.py
(`get_json`: NRDB_URL only, short, capped, no redirect, failures in words); the token comes from the caller (the
web layer keeps it in the player's session) and goes only into the Authorization header.
"""
from __future__ import annotations

from flask import current_app

from ...core import nrdb_decks
from ...core.decklists import Checked, Side
from ...models import Decklist, Player, Tournament
from .. import decklists
from .decks import PUBLIC_URL, FetchedList, FetchError, ServerError, SignInExpired, get_json, player_may_submit


def own_decks(token: str) -> nrdb_decks.OwnDecks:
    """Every deck of the token's account, newest change first. FetchError (SignInExpired for a refused token)."""
    doc = get_json(current_app.config["NRDB_URL"] + nrdb_decks.OWN_DECKS_PATH, token,
                   current_app.config["NRDB_OWN_DECKS_MAX_BYTES"])
    try:
        return nrdb_decks.read_own_decks(doc)
    except nrdb_decks.NotADeck as e:
        raise FetchError(f"{e} Try again later, or paste the list itself.") from None


_NOT_YOURS = "Deck {deck_id} is not in your NetrunnerDB account (another player's, or deleted): pick one from the list."


def _not_yours_or_failing(deck_id: int, token: str, error: ServerError) -> FetchError:
    """NetrunnerDB's private API answers 500 for a deck id the token's account does not own, as for a failure of its
    own (/src/AppBundle/Controller/PrivateApi20Controller.php `loadDeckByIdAction` hands its `loadDeck(Deck $deck)`
    the null it found): the player's list of decks tells which, so the message is true either way."""
    try:
        listed = own_decks(token)
    except SignInExpired:
        raise
    except FetchError:
        return FetchError(f"NetrunnerDB answered 500 for deck {deck_id}, as it does for a deck that is not in your "
                          "NetrunnerDB account, and your list of decks could not be read to tell. Pick one from the "
                          "list, or try again later.")
    if any(d.id == deck_id for d in listed.decks):
        return error  # one of theirs: NetrunnerDB itself failed
    if listed.unreadable:
        return FetchError(f"NetrunnerDB answered 500 for deck {deck_id}, which is not among the decks SASS can read "
                          "in your NetrunnerDB account: pick one from the list.")
    return FetchError(_NOT_YOURS.format(deck_id=deck_id))


def submit(t: Tournament, player: Player, side: str, deck_id: int, token: str) \
        -> tuple[Decklist, Checked, FetchedList]:
    """Fetch the player's deck `deck_id` (NetrunnerDB answers only their own: another id is a 500) and store it as their
    `side` list,
    judged as a paste. Refused before any fetch when the player may not submit; FetchError or
    decklists.DecklistError: nothing changed."""
    side = Side(side).value
    player_may_submit(t, player, side)
    try:
        found = nrdb_decks.read_answer(get_json(current_app.config["NRDB_URL"] + nrdb_decks.own_deck_path(deck_id),
                                                token))
    except nrdb_decks.NotFound:
        raise FetchError(_NOT_YOURS.format(deck_id=deck_id)) from None
    except nrdb_decks.NotADeck as e:
        raise FetchError(str(e)) from None
    except ServerError as e:
        if e.status != 500:
            raise
        raise _not_yours_or_failing(deck_id, token, e) from None
    page = nrdb_decks.own_deck_ref(deck_id).page(PUBLIC_URL)
    fetched = FetchedList(nrdb_decks.as_text(found, page), found.name, page)
    deck, checked = decklists.submit(t, player, side, fetched.text, "player")
    return deck, checked, fetched
