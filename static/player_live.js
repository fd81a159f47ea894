/* A player's own page keeps itself up to date: the opponent's report, a new round, the top cut and the final
   place appear without a reload. The server draws every part (templates/player/_parts.html) and sends each
   one's digest and HTML; this script swaps in those whose digest changed (an answer without the HTML, from a
   server before that, is asked again for the changed parts). It asks when the event's status
   (static/poll.js, a "sass:status" event) names another round or pairings, and at the server's interval
   (data-check-ms: config.py PLAYER_CHECK_MS, longer at a big event: app/core/polling.py) with a revalidated
   ETag: an unchanged event costs a 304. */
(function () {
  "use strict";
  var root = document.getElementById("me-live");
  if (!root || !window.fetch) { return; }
  var url = root.getAttribute("data-url"), etag = '"' + root.getAttribute("data-etag") + '"';
  var digests = JSON.parse(root.getAttribute("data-digests") || "{}");
  var CHECK_MS = Number(root.getAttribute("data-check-ms")) || 10000;

  /* The digests (parts: null), revalidated with the ETag last heard (a 304 answers null); or the parts named. */
  var ask = function (parts) {
    var address = new URL(url, window.location.href), headers = { "Accept": "application/json" };
    if (parts) { address.searchParams.set("parts", parts.join(",")); } else { headers["If-None-Match"] = etag; }
    return fetch(address, { cache: "no-store", credentials: "same-origin", headers: headers }).then(function (r) {
      if (r.status === 304 || !r.ok) { return null; }
      if (!parts) { etag = r.headers.get("ETag") || etag; }
      return r.json();
    });
  };

  /* A part the player is in the middle of (the drop box opened, a button being pressed) waits for the next check. */
  var busy = function (el) {
    return !!el.querySelector("details[open]") || el.contains(document.activeElement) && document.activeElement !== document.body;
  };

  var swap = function (fragments, fresh) {
    Object.keys(fragments).forEach(function (id) {
      var old = document.getElementById(id);
      if (!old || busy(old)) { return; }
      var holder = document.createElement("template");
      holder.innerHTML = fragments[id].trim();
      var part = holder.content.firstElementChild;
      if (!part) { return; }
      old.replaceWith(part);
      digests[id] = fresh[id];
    });
    document.dispatchEvent(new CustomEvent("sass:parts"));  // static/push.js keeps the event's pages again
  };

  var checking = false, again = false;
  var check = function () {
    if (checking) { again = true; return; }
    if (document.hidden) { return; }
    checking = true;
    ask(null).then(function (data) {
      if (!data) { return null; }
      var changed = Object.keys(data.digests).filter(function (id) {
        var el = document.getElementById(id);
        return el && digests[id] !== data.digests[id] && !busy(el);
      });
      if (!changed.length) { return null; }
      if (data.fragments) {
        var drawn = {};
        changed.forEach(function (id) { if (data.fragments[id] !== undefined) { drawn[id] = data.fragments[id]; } });
        swap(drawn, data.digests);
        return null;
      }
      return ask(changed).then(function (got) { if (got) { swap(got.fragments, got.digests); } });
    }).catch(function () {}).then(function () {
      checking = false;
      if (again) { again = false; check(); }
    });
  };

  /* A publish (new round or pairings): ask before the next check (the first status too: it may be newer than
     the page). At once, or, at a big event (data-spread-ms: app/core/polling.py), at a moment drawn within
     that spread in place of the next check: the hall's phones then reach the server at the rate of their
     checks, not all in the same two seconds. */
  var SPREAD_MS = Number(root.getAttribute("data-spread-ms")) || 0;
  var timer = null;
  var plan = function (ms) {
    window.clearTimeout(timer);
    timer = window.setTimeout(function () { check(); plan(CHECK_MS * (0.75 + Math.random() / 2)); }, ms);
  };
  /* A newly published round's table at once, from the shared answer of this player's bucket (data-seats: a proxy
     keeps it for the whole hall), drawn by the server; the page's own check then brings the whole card. */
  var SEATS = root.getAttribute("data-seats"), PLAYER = root.getAttribute("data-player");
  var preview = function (s) {
    if (!SEATS || !s.round) { return; }
    var card = document.getElementById("me-card");
    var shown = card && card.querySelector("[data-round]");
    if (!card || busy(card) || (shown && Number(shown.getAttribute("data-round")) >= s.round)) { return; }
    var address = new URL(SEATS.replace("{round}", s.round), window.location.href);
    address.searchParams.set("v", s.version);
    fetch(address, { credentials: "omit" }).then(function (r) { return r.ok ? r.json() : null; }).then(function (data) {
      var seat = data && data.seats[PLAYER], now = document.getElementById("me-card");
      var drawn = document.getElementById(seat && seat.opponent === null ? "seat-preview-bye" : "seat-preview");
      if (!seat || !now || !drawn) { return; }
      var already = now.querySelector("[data-round]");
      if (already && Number(already.getAttribute("data-round")) >= s.round) { return; }
      var card = drawn.content.firstElementChild.cloneNode(true), values = { round: s.round, table: seat.table,
        side: seat.side, opponent: seat.opponent };
      card.setAttribute("data-round", s.round);
      card.querySelectorAll("[data-field]").forEach(function (el) {
        el.textContent = values[el.getAttribute("data-field")];
        if (el.getAttribute("data-field") === "side" && seat.side) { el.className = seat.side.toLowerCase(); }
      });
      card.querySelectorAll("[data-if]").forEach(function (el) {
        if ((el.getAttribute("data-if") === "side") !== !!seat.side) { el.remove(); }
      });
      now.replaceChildren(card);
    }).catch(function () {});
  };
  var seen = null;
  document.addEventListener("sass:status", function (e) {
    var s = e.detail.status, key = [s.round, s.version].join("/");
    if (seen !== key) {
      preview(s);
      if (SPREAD_MS > 0) { plan(Math.random() * SPREAD_MS); } else { check(); }
    }
    seen = key;
  });
  plan(CHECK_MS * (0.75 + Math.random() / 2));
  document.addEventListener("visibilitychange", check);
})();
