/* The organizer's player list: self-registrations (and other staff's changes) appear without a reload.
   Polls the list's JSON with its ETag; an unchanged list answers an empty 304. */
(function () {
  "use strict";
  var box = document.getElementById("player-table");
  var count = document.getElementById("player-count");
  if (!box || !window.fetch) { return; }
  var url = box.getAttribute("data-live-url"), etag = '"' + box.getAttribute("data-etag") + '"';
  var check = function () {
    if (document.hidden) { return; }
    fetch(url, { cache: "no-store", credentials: "same-origin", headers: { "If-None-Match": etag } })
      .then(function (r) {
        if (r.status !== 200) { return null; }
        etag = r.headers.get("ETag") || etag;
        return r.json();
      })
      .then(function (data) {
        if (!data) { return; }
        box.innerHTML = data.html;
        if (count) { count.innerHTML = data.count; }
      })
      .catch(function () {});
  };
  window.setInterval(check, 4000);
  document.addEventListener("visibilitychange", check);
})();
