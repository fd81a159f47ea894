/* Round countdowns ([data-countdown], templates/timer/_countdown.html): computed here, every fraction of a
   second, from the server's end time and this device's clock offset; static/poll.js brings state changes
   (pause, more minutes, time called) at its next poll. Nothing accumulates, so nothing drifts. */
(function () {
  "use strict";
  /* Asked afresh each time: a player's page swaps its clock in when a new round is published. */
  var all = function () { return Array.prototype.slice.call(document.querySelectorAll("[data-countdown]")); };
  var boxes = all();
  if (!boxes.length && !document.getElementById("me-clock")) { return; }
  var LOW_MS = 5 * 60 * 1000;
  var first = boxes.length ? Number(boxes[0].getAttribute("data-server-now")) : 0;
  var offset = first ? first - Date.now() : 0;   /* until the first poll measures it properly */

  /* 64:59, 9:05, and 1:45:00 from 100 minutes up (app/web/views/timer.py: clock_text) */
  var text = function (seconds) {
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    if (seconds < 6000) { return Math.floor(seconds / 60) + ":" + two(seconds % 60); }
    return Math.floor(seconds / 3600) + ":" + two(Math.floor(seconds % 3600 / 60)) + ":" + two(seconds % 60);
  };

  var draw = function () {
    var now = Date.now() + offset;
    boxes = all();
    boxes.forEach(function (box) {
      var state = box.getAttribute("data-state"), left = null, label;
      if (state === "running") { left = Math.max(0, Date.parse(box.getAttribute("data-ends-at")) - now); }
      else if (state === "paused") { left = Number(box.getAttribute("data-remaining-ms")); }
      else if (state === "called") { left = 0; }
      var expired = state === "running" && left === 0;
      if (!state) { label = "Timer not started"; }
      else if (state === "paused") { label = "Paused"; }
      else if (state === "called") { label = "Time has been called"; }
      else if (expired) { label = "Time is up"; }
      else { label = "Time left in round " + box.getAttribute("data-round"); }
      var shown = left === null ? "\u2013:\u2013\u2013" : text(Math.ceil(left / 1000));
      var time = box.querySelector(".countdown-time"), caption = box.querySelector(".countdown-label");
      if (time.textContent !== shown) { time.textContent = shown; }
      if (caption.textContent !== label) { caption.textContent = label; }
      ["running", "paused", "called"].forEach(function (s) { box.classList.toggle(s, state === s); });
      box.classList.toggle("expired", expired);
      box.classList.toggle("low", state === "running" && left > 0 && left <= LOW_MS);
      if (box.hasAttribute("data-idle-hidden")) { box.hidden = !state; }
    });
  };

  document.addEventListener("sass:status", function (e) {
    var status = e.detail.status, timer = status.timer;
    if (e.detail.offset !== null) { offset = e.detail.offset; }
    all().forEach(function (box) {
      var round = box.getAttribute("data-round");
      var shows = timer ? String(timer.round) : String(status.round);
      if (round && round !== shows) { return; }  /* the status speaks of another round */
      if (timer) { box.setAttribute("data-round", timer.round); }
      box.setAttribute("data-state", timer ? timer.state : "");
      box.setAttribute("data-ends-at", timer && timer.ends_at ? timer.ends_at : "");
      box.setAttribute("data-remaining-ms", timer && timer.remaining_ms !== undefined ? timer.remaining_ms : "");
    });
    draw();
  });

  draw();
  window.setInterval(draw, 200);
})();
