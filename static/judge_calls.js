/* The staff pages' judge calls (templates/judge_calls/_panel.html): a poll every 3 s asks the server for the open
   calls (a 304 while nothing changed) and swaps in the list it drew; the badge counts the calls waiting for a judge,
   and a new one beeps when this device turned the sound on (kept in localStorage, off by default); the tab's
   title counts them too. "I'll go" and "Resolved" are sent in the background; the server says who won a claim
   both staff tapped at once. */
(function () {
  "use strict";
  var panel = document.getElementById("judge-calls");
  if (!panel || !window.fetch) { return; }
  var url = panel.getAttribute("data-url"), etag = '"' + panel.getAttribute("data-etag") + '"';
  var badge = document.getElementById("judge-badge"), sound = document.getElementById("judge-sound");
  var toast = document.getElementById("judge-toast"), toastTimer = null;
  var waiting = Number(panel.getAttribute("data-open")) || 0;
  var KEY = "sass:judge-sound";

  try { sound.checked = window.localStorage.getItem(KEY) === "on"; } catch (e) { /* private mode: off */ }
  sound.addEventListener("change", function () {
    try { window.localStorage.setItem(KEY, sound.checked ? "on" : "off"); } catch (e) { /* private mode */ }
    if (sound.checked) { beep(); }  /* the tap also lets the browser play sound later */
  });

  var audio = null;
  var beep = function () {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) { return; }
    try {
      audio = audio || new Context();
      if (audio.state === "suspended") { audio.resume(); }
      [0, 0.25].forEach(function (at) {
        var tone = audio.createOscillator(), gain = audio.createGain();
        tone.frequency.value = 880;
        gain.gain.setValueAtTime(0.2, audio.currentTime + at);
        gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + at + 0.2);
        tone.connect(gain).connect(audio.destination);
        tone.start(audio.currentTime + at);
        tone.stop(audio.currentTime + at + 0.2);
      });
    } catch (e) { /* no sound: the badge still shows */ }
  };

  var say = function (text, bad) {
    if (!toast) { return; }
    toast.textContent = text;
    toast.classList.toggle("bad", !!bad);
    toast.hidden = false;
    window.clearTimeout(toastTimer);
    toastTimer = window.setTimeout(function () { toast.hidden = true; }, bad ? 8000 : 3000);
  };

  var show = function (body) {
    var list = document.getElementById("judge-calls-list");
    if (list && typeof body.html === "string") {
      var holder = document.createElement("template");
      holder.innerHTML = body.html.trim();
      if (holder.content.firstElementChild) { list.replaceWith(holder.content.firstElementChild); }
    }
    var now = Number(body.open) || 0;
    if (now > waiting && sound.checked) { beep(); }
    waiting = now;
    panel.setAttribute("data-open", String(now));
    panel.classList.toggle("ringing", now > 0);
    badge.textContent = now + " waiting";
    badge.hidden = now === 0;
    document.title = (now ? "(" + now + ") " : "") + title;  /* seen from another tab too */
  };
  var title = document.title;
  if (waiting) { document.title = "(" + waiting + ") " + title; }

  var polling = false;
  var poll = function () {
    if (polling) { return; }  /* hidden tabs too: a call must reach a TO who looks at another page */
    polling = true;
    fetch(url, { cache: "no-store", credentials: "same-origin",
                 headers: { "Accept": "application/json", "If-None-Match": etag } })
      .then(function (r) {
        if (r.status === 304 || !r.ok) { return null; }
        etag = r.headers.get("ETag") || etag;
        return r.json();
      })
      .then(function (body) { if (body) { show(body); } })
      .catch(function () {})
      .then(function () { polling = false; });
  };

  panel.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form.judge-step") || !window.FormData) { return; }
    event.preventDefault();
    if (form.getAttribute("aria-busy") === "true") { return; }
    form.setAttribute("aria-busy", "true");
    fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin",
                         headers: { "Accept": "application/json" } })
      .then(function (r) {
        return r.json().catch(function () { return {}; }).then(function (body) { return { ok: r.ok, body: body }; });
      })
      .then(function (answer) {
        if (answer.body.html) { show(answer.body); }
        say(answer.body.message || (answer.ok ? "Done." : "Not saved: reload the page and try again."), !answer.ok);
      })
      .catch(function () { say("Not saved: no connection. Tap again.", true); })
      .then(function () { form.removeAttribute("aria-busy"); });
  });

  window.setInterval(poll, 3000);
  document.addEventListener("visibilitychange", poll);
})();
