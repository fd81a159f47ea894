/* Public pairings: filter the list by name as you type, and reload when the organizer publishes a round. */
(function () {
  "use strict";
  var input = document.getElementById("find");
  var list = document.getElementById("pairings");
  var none = document.getElementById("no-match");
  if (input && list) {
    var filter = function () {
      var q = input.value.trim().toLowerCase(), shown = 0;
      Array.prototype.forEach.call(list.children, function (li) {
        var hit = !q || li.getAttribute("data-names").indexOf(q) !== -1;
        li.hidden = !hit;
        if (hit) { shown += 1; }
      });
      if (none) { none.hidden = shown > 0; }
      var url = new URL(window.location.href);   /* a reload keeps the filter */
      if (q) { url.searchParams.set("q", input.value.trim()); } else { url.searchParams.delete("q"); }
      window.history.replaceState(null, "", url);
    };
    input.addEventListener("input", filter);
  }

  var live = document.getElementById("live");
  if (!live || !window.fetch) { return; }
  var url = live.getAttribute("data-status-url"), version = live.getAttribute("data-version");
  var check = function () {
    if (document.hidden) { return; }
    fetch(url, { cache: "no-store" }).then(function (r) { return r.ok ? r.json() : null; }).then(function (s) {
      if (s && s.version !== version) { window.location.reload(); }
    }).catch(function () {});
  };
  window.setInterval(check, 15000);
  document.addEventListener("visibilitychange", check);
})();
