"""Push on a 360 px phone: the player taps "Notify me" on their page, the round is published, the stand-in push
service (tests/push_standin.py) receives the message encrypted for that browser and decrypts it as the browser
would; delivered to the page's real service worker, it shows as a notification with the player's table; the
page kept by the worker is shown, marked, when the network is gone; "Stop notifications" ends it.

Chromium's own subscription needs Google's push service, which a browser here cannot reach: the page's
PushManager.subscribe is replaced by one that hands out the stand-in's subscription (made as a browser makes one).
Everything else is real: the permission, the service worker, the page's post with its CSRF token, the server, the
outbox and sender, the encryption and VAPID signature, and the worker's notification (delivered through Chromium's
DevTools protocol, as a push service's message would be)."""
from __future__ import annotations

import base64
import json

import pytest
import sqlalchemy as sa
from playwright.sync_api import expect
from push_standin import PushStandIn
from py_vapid import Vapid02

from app.extensions import db
from app.models import Player, PushSubscription
from app.services.players import player_links
from app.services.push import keys, sender
from tests.browser.test_participation_flow import PHONE_360, games, no_sideways_scroll

STUB = """
(() => {
  const SUB = %s;
  const stored = () => JSON.parse(localStorage.getItem("standin-sub") || "null");
  const make = (json) => ({ endpoint: json.endpoint, toJSON: () => json,
    unsubscribe: () => { localStorage.removeItem("standin-sub"); return Promise.resolve(true); } });
  PushManager.prototype.subscribe = function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    localStorage.setItem("standin-key", btoa(String.fromCharCode(...key)));
    localStorage.setItem("standin-sub", JSON.stringify(SUB));
    return Promise.resolve(make(SUB));
  };
  PushManager.prototype.getSubscription = function () {
    const json = stored();
    return Promise.resolve(json ? make(json) : null);
  };
})();
"""


@pytest.fixture
def push_on(live_server):
    standin = PushStandIn()
    key = Vapid02()
    key.generate_keys()
    config = live_server.app.config
    before = {k: config.get(k) for k in ("PUSH", "PUSH_SERVICES", "VAPID_PRIVATE_KEY")}
    config.update(PUSH="on", PUSH_SERVICES=(standin.origin,), VAPID_PRIVATE_KEY=key.private_pem().decode())
    try:
        yield standin
    finally:
        sender.stop(live_server.app)  # the thread the page's requests started
        config.update(before)
        standin.close()


def test_notify_me_then_the_round_on_the_lock_screen(push_on, roster, new_context, organizer, seed_swiss,
                                                    live_server, screenshots):
    standin = push_on
    event = seed_swiss(organizer["id"], roster, rounds=0, name="Push Open")
    with live_server.app_context():
        player = db.session.scalars(sa.select(Player).where(Player.tournament_id == event.id)
                                    .order_by(Player.id)).first()
        name, link = player.name, f"/t/{player.tournament.slug}/p/{player_links.token(player)}"
        server_key = keys.public_key(live_server.app)
        db.session.remove()
    subscription = standin.subscribe()

    context = new_context(**PHONE_360)
    context.grant_permissions(["notifications"])
    context.add_init_script(STUB % json.dumps(subscription))
    phone = context.new_page()
    phone.goto(link)
    box = phone.locator("#push-box")
    expect(box.get_by_role("button", name="Notify me")).to_be_visible()
    no_sideways_scroll(phone)
    phone.screenshot(path=str(screenshots / "push_switch_360.png"), full_page=True)
    phone.set_viewport_size({"width": 1280, "height": 800})  # the same page on a laptop
    no_sideways_scroll(phone)
    phone.screenshot(path=str(screenshots / "push_switch_1280.png"), full_page=True)
    phone.set_viewport_size(PHONE_360["viewport"])
    box.get_by_role("button", name="Notify me").click()
    expect(box.locator("#push-state")).to_have_text("Notifications are on for this device.")
    expect(box.get_by_role("button", name="Stop notifications")).to_be_visible()
    used = base64.b64decode(phone.evaluate("localStorage.getItem('standin-key')"))
    assert base64.urlsafe_b64encode(used).rstrip(b"=").decode() == server_key  # subscribed with the server's key
    with live_server.app_context():
        stored = db.session.scalars(sa.select(PushSubscription.endpoint)
                                    .where(PushSubscription.player_id == player.id)).all()
        db.session.remove()
    assert stored == [subscription["endpoint"]]

    event.pair(1)  # paired and published: the server's sender thread (started by the page's requests) sends it
    with live_server.app_context():
        sender.send_due(live_server.app)
    for _ in range(100):
        if standin.texts(subscription["endpoint"]):
            break
        phone.wait_for_timeout(100)
    (message,) = standin.texts(subscription["endpoint"])
    mine = next(g for g in games(live_server, event.id) if name in (g["corp"]["name"], g["runner"]["name"]))
    side, other = ("Corp", mine["runner"]) if mine["corp"]["name"] == name else ("Runner", mine["corp"])
    assert message["body"] == f"Round 1: table {mine['table']}, {side} against {other['name']}."
    assert message["title"] == "Push Open" and message["url"] == link

    # The message, as the push service would hand it to this browser, reaches the page's own service worker,
    # which shows it as a notification.
    cdp = context.new_cdp_session(phone)
    registrations = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: registrations.extend(e["registrations"]))
    cdp.send("ServiceWorker.enable")
    phone.evaluate("navigator.serviceWorker.ready.then(() => true)")
    for _ in range(50):
        if any(not r.get("isDeleted") for r in registrations):
            break
        phone.wait_for_timeout(100)
    registration = next(r for r in registrations if not r.get("isDeleted"))
    shown = []
    for _attempt in range(3):  # a loaded machine may start the worker late: the message is delivered again
        cdp.send("ServiceWorker.deliverPushMessage", {"origin": live_server.url + "/",
                                                      "registrationId": registration["registrationId"],
                                                      "data": json.dumps(message)})
        for _ in range(70):  # the worker shows it within moments
            shown = phone.evaluate("navigator.serviceWorker.ready.then(r => r.getNotifications())"
                                   ".then(n => n.map(x => [x.title, x.body]))")
            if shown:
                break
            phone.wait_for_timeout(100)
        if shown:
            break
    assert [message["title"], message["body"]] in shown

    # The page the worker kept is there when the network is gone, marked as such.
    phone.reload()
    expect(phone.locator(".me-card, #me-card").first).to_contain_text(str(mine["table"]))
    context.set_offline(True)
    phone.reload()
    expect(phone.locator(".offline-banner")).to_contain_text("No network")
    expect(phone.locator("h1")).to_have_text(name)
    phone.screenshot(path=str(screenshots / "push_offline_360.png"), full_page=True)
    phone.set_viewport_size({"width": 1280, "height": 800})
    expect(phone.locator(".offline-banner")).to_be_visible()
    no_sideways_scroll(phone)
    phone.screenshot(path=str(screenshots / "push_offline_1280.png"), full_page=True)
    phone.set_viewport_size(PHONE_360["viewport"])
    phone.goto(f"/t/{link.split('/')[2]}/pairings")  # kept by the worker when the player's page opened
    expect(phone.locator(".offline-banner")).to_contain_text("No network")
    expect(phone.locator("main")).to_contain_text(name)
    context.set_offline(False)
    phone.goto(link)
    expect(phone.locator(".offline-banner")).to_have_count(0)

    box = phone.locator("#push-box")
    box.get_by_role("button", name="Stop notifications").click()
    expect(box.locator("#push-state")).to_have_text("Notifications are off for this device.")
    with live_server.app_context():
        left = db.session.scalar(sa.select(sa.func.count()).select_from(PushSubscription)
                                 .where(PushSubscription.player_id == player.id))
        db.session.remove()
    assert left == 0
