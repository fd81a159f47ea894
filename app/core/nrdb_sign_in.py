"""Whether signing in with NetrunnerDB can work at this server's address: the one rule the sign-in routes and every
page's "Sign in with NetrunnerDB" button ask (app/web/nrdb_oauth.py `enabled`).

NetrunnerDB sends a player back only to a redirect address its admins registered for the client, compared by prefix
(FriendsOfSymfony/oauth2-php /lib/OAuth2.php `validateRedirectUri`, the library under NetrunnerDB's OAuth server,
NetrunnerDB/netrunnerdb /src/AppBundle/Command/CreateClientCommand.php `--redirect-uri`). Any other address gets
`redirect_uri_mismatch` on NetrunnerDB's own site and the player is stranded there. An address on a hall's network
(a private range, link-local, loopback, a bare IP, a `.local` name) is not one anyone registers with NetrunnerDB,
and it changes from venue to venue, so there the sign-in is not offered at all.

Pure: no Flask, no network; the callers pass PUBLIC_URL.
"""
from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

CALLBACK_PATH = "/nrdb/callback"  # app/web/views/nrdb.py `callback`; the redirect address is PUBLIC_URL + this

# Names only a local network resolves: mDNS (.local, RFC 6762), this machine (.localhost, RFC 6761), a home network
# (.home.arpa, RFC 8375) and the names routers and companies hand out inside (.lan, .internal).
_LOCAL_SUFFIXES = (".local", ".localhost", ".home.arpa", ".lan", ".internal")

WHAT_TO_DO = ("To offer it, serve SASS at a public https address, set PUBLIC_URL to it, and ask NetrunnerDB's admins "
              "to register your client with the redirect address PUBLIC_URL + " + CALLBACK_PATH + ".")


def callback_address(public_url: str) -> str:
    """The exact redirect address to register with NetrunnerDB for this PUBLIC_URL."""
    return public_url.rstrip("/") + CALLBACK_PATH


def why_not(public_url: str) -> str | None:
    """None when NetrunnerDB can send players back to `public_url` (a public name); else why not, in words for the
    organizer (without what to do: `WHAT_TO_DO`)."""
    public_url = (public_url or "").strip()
    if not public_url:
        return ("PUBLIC_URL is not set, so this server has no fixed address NetrunnerDB could send players back to "
                "(`make venue` sets it to the laptop's address on the hall's network).")
    host = (urlsplit(public_url).hostname or "").rstrip(".").lower()
    if not host:
        return f"PUBLIC_URL ({public_url}) names no host."
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        ip = None
    if ip is not None:
        if ip.is_loopback:
            return f"PUBLIC_URL ({public_url}) names this computer only (a loopback address)."
        if ip.is_link_local:
            return f"PUBLIC_URL ({public_url}) is a link-local address, reachable only on this network."
        if ip.is_private:
            return f"PUBLIC_URL ({public_url}) is an address on a local network (a private range), as at a venue."
        return (f"PUBLIC_URL ({public_url}) is a bare IP address, not a name: NetrunnerDB's clients are registered "
                "for a site's public name.")
    if host == "localhost" or host.endswith(".localhost"):
        return f"PUBLIC_URL ({public_url}) names this computer only ({host})."
    if host.endswith(_LOCAL_SUFFIXES):
        return f"PUBLIC_URL ({public_url}) is a name only the local network knows ({host})."
    if "." not in host:
        return f"PUBLIC_URL ({public_url}) is a name without a domain ({host}), known only on the local network."
    return None


def possible(public_url: str) -> bool:
    """Whether the sign-in is offered at `public_url`."""
    return why_not(public_url) is None
