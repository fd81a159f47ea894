/* A shared public page (the same bytes for every phone, kept by a proxy) asks the server for this device's own
   parts and shows them: the player's "You" line, their row, an organizer's menu, flashed messages. The server
   says which row (its position and its names); this script only marks it, and leaves a row alone that is not
   the one the server meant (a page from before a publish). */
(function () {
  "use strict";

  var box = document.getElementById("you");
  if (!box || !window.fetch) { return; }
  fetch(box.getAttribute("data-me-url"), { credentials: "same-origin", cache: "no-store" }).then(function (r) {
    return r.ok ? r.json() : null;
  }).then(function (me) {
    if (!me) { return; }
    if (me.you) { box.innerHTML = me.you; }
    var nav = document.querySelector("header.site nav");
    if (me.nav && nav) { nav.innerHTML = me.nav; }
    var main = document.querySelector("main");
    if (me.flashes && main) { main.insertAdjacentHTML("afterbegin", me.flashes); }
    var list = document.getElementById("pairings") || document.getElementById("standings-rows");
    var row = list && typeof me.row === "number" ? list.children[me.row] : null;
    if (!row || row.getAttribute("data-names") !== me.names) { return; }
    Array.prototype.forEach.call(list.querySelectorAll(".me"), function (other) { other.classList.remove("me"); });
    row.classList.add("me");
    row.setAttribute("data-server", "");
  }).catch(function () { /* offline: the shared page stands as it is */ });
})();
