/* Public pages: filter a list by name as you type (the rows carry the server's name keys, the typed text's key is
   asked of the server: static/name_key.js), and poll the event's status: reload when the organizer publishes a
   round (where the page says its pairings version), and hand every answer, the round timer and this device's
   clock offset to static/countdown.js and static/player_live.js (a "sass:status" event). */
(function () {
  "use strict";

  var input = document.getElementById("find");
  var list = input && document.getElementById(input.getAttribute("data-list") || "pairings");
  var none = document.getElementById("no-match");
  if (input && list && window.sassNameKey) {
    var keyUrl = input.getAttribute("data-key-url"), typing = null;
    var memory = "sass:me:" + window.location.pathname.split("/")[2];
    var store = function (key) { try { window.localStorage.setItem(memory, key); } catch (e) { /* private mode */ } };
    /* "Me" on a device without the player's link (the server marks that player itself): the name found on the
       standings, one row left, is remembered for this event and its rows marked on standings and pairings. */
    var mark = function () {
      var key;
      try { key = window.localStorage.getItem(memory); } catch (e) { return; }
      if (!key || list.querySelector(".me[data-server]")) { return; }
      Array.prototype.forEach.call(list.children, function (row) {
        var names = " " + row.getAttribute("data-names") + " ";
        row.classList.toggle("me", names.indexOf(" " + key + " ") !== -1);
      });
    };
    /* The rows whose names hold `q`, the server's key of what is typed (`typed`: by the user, not the URL). */
    var show = function (q, typed) {
      var shown = [];
      Array.prototype.forEach.call(list.children, function (row) {
        var hit = !q || row.getAttribute("data-names").indexOf(q) !== -1;
        row.hidden = !hit;
        if (hit) { shown.push(row); }
      });
      if (none) { none.hidden = shown.length > 0; }
      var url = new URL(window.location.href);   /* a reload keeps the filter */
      if (q) { url.searchParams.set("q", input.value.trim()); } else { url.searchParams.delete("q"); }
      window.history.replaceState(null, "", url);
      if (typed && q && shown.length === 1 && list.id === "standings-rows") {
        store(shown[0].getAttribute("data-names"));
        mark();
      }
    };
    /* Until the server answers, the list stays as it was; an answer to an older text is dropped. */
    var filter = function (event) {
      var text = input.value, typed = !!event;
      window.clearTimeout(typing);
      if (!text) { show("", typed); return; }
      typing = window.setTimeout(function () {
        window.sassNameKey(keyUrl, text).then(function (q) {
          if (input.value === text) { show(q, typed); }
        }, function () { /* offline: the Find button still asks the server */ });
      }, 150);
    };
    input.addEventListener("input", filter);
    if (input.value) { filter(null); }
    mark();
  }

  var live = document.querySelector("[data-status-url]");
  if (!live || !window.fetch) { return; }
  var url = live.getAttribute("data-status-url"), version = live.getAttribute("data-version");
  var timerState = live.getAttribute("data-timer-state");  /* a TO page: its buttons follow the timer's state */
  var etag = null, status = null, samples = [];
  /* The server's setting (config.py STATUS_POLL_MS), each wait drawn between 0.75 and 1.25 of it: a hall of
     phones that loaded a round together does not poll in step. */
  var POLL_MS = Number(live.getAttribute("data-poll-ms")) || 10000;

  /* The server's clock minus this device's, from the poll with the shortest round trip among the last few
     (the NTP idea): a phone whose clock is minutes off still counts down to the server's second. */
  var offset = function (sent, received, serverMs) {
    if (serverMs) {
      samples.push({ rtt: received - sent, offset: serverMs - (sent + received) / 2 });
      if (samples.length > 8) { samples.shift(); }
    }
    if (!samples.length) { return null; }
    return samples.reduce(function (a, b) { return b.rtt < a.rtt ? b : a; }).offset;
  };

  /* A form being filled in (the event home's registration) is never thrown away by a reload: the page says a new
     round is up (#live-stale) and the player reloads when done. */
  var typed = false;
  document.addEventListener("input", function (e) {
    if (e.target && e.target.form && e.target.id !== "find") { typed = true; }
  });

  /* The new pairings at an address of their version: a proxy that still keeps the page of a second ago (a shared
     answer, docs/security.md) has nothing at that address yet, so the phone gets the new page at once. */
  var fresh = function (newVersion) {
    var stale = document.getElementById("live-stale");
    if (typed && stale) { stale.hidden = false; return; }
    var next = new URL(window.location.href);
    next.searchParams.set("v", newVersion);
    window.location.replace(next.toString());
  };

  var check = function () {
    if (document.hidden) { return; }
    var sent = Date.now();
    fetch(url, { cache: "no-store", headers: etag ? { "If-None-Match": etag } : {} }).then(function (r) {
      var skew = offset(sent, Date.now(), Number(r.headers.get("X-Server-Time")));
      if (r.status === 304) { return { status: status, offset: skew }; }
      if (!r.ok) { return null; }
      etag = r.headers.get("ETag");
      return r.json().then(function (s) { return { status: s, offset: skew }; });
    }).then(function (got) {
      if (!got || !got.status) { return; }
      status = got.status;
      if (version !== null && status.version !== version) { fresh(status.version); return; }
      if (timerState !== null && (status.timer ? status.timer.state : "") !== timerState) {
        window.location.reload();
        return;
      }
      document.dispatchEvent(new CustomEvent("sass:status", { detail: got }));
    }).catch(function () {});
  };
  if (document.querySelector("[data-countdown]")) { check(); }  /* the clock offset at once */
  var next = function () {
    window.setTimeout(function () { check(); next(); }, POLL_MS * (0.75 + Math.random() / 2));
  };
  next();
  document.addEventListener("visibilitychange", check);
})();
