/* Projector page: the list of names scrolls slowly by itself when it is taller than the screen, pausing at
   each end and whenever someone types in the search box. */
(function () {
  "use strict";
  var list = document.getElementById("seat-list"), input = document.getElementById("find");
  if (!list) { return; }
  var SPEED = 30, PAUSE_MS = 4000;   /* pixels per second; the pause at each end */
  var last = null, wait = PAUSE_MS, direction = 1, position = 0;
  var step = function (t) {
    var dt = last === null ? 0 : Math.min(100, t - last);
    last = t;
    var room = list.scrollHeight - list.clientHeight;
    if (room > 0 && !(input && input.value) && document.activeElement !== input) {
      if (wait > 0) { wait -= dt; }
      else {
        position = Math.max(0, Math.min(room, position + direction * SPEED * dt / 1000));
        list.scrollTop = position;
        if (position === room || position === 0) { direction = -direction; wait = PAUSE_MS; }
      }
    } else { position = list.scrollTop; }
    window.requestAnimationFrame(step);
  };
  window.requestAnimationFrame(step);
})();
