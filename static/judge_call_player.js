/* The player's judge call box (templates/judge_calls/_player.html): while a call is open, a poll every 3 s asks
   the server for the box (a 304 while nothing changed) and swaps it in, so "sent" becomes "a judge is on the way"
   and then "resolved" without a reload. */
(function () {
  "use strict";
  if (!window.fetch) { return; }
  var etag = null;
  var poll = function () {
    var box = document.getElementById("judge-call");
    if (!box || box.getAttribute("data-live") !== "true" || document.hidden) { return; }
    if (box.contains(document.activeElement) && document.activeElement.tagName === "INPUT") { return; }
    fetch(box.getAttribute("data-url"), { cache: "no-store", credentials: "same-origin",
                                          headers: etag ? { "If-None-Match": etag } : {} })
      .then(function (r) {
        if (r.status === 304 || !r.ok) { return null; }
        etag = r.headers.get("ETag");
        return r.json();
      })
      .then(function (body) {
        if (!body) { return; }
        var holder = document.createElement("template");
        holder.innerHTML = body.html.trim();
        var fresh = holder.content.firstElementChild, now = document.getElementById("judge-call");
        if (fresh && now) { now.replaceWith(fresh); }
      })
      .catch(function () {});
  };
  window.setInterval(poll, 3000);
  document.addEventListener("visibilitychange", poll);
})();
