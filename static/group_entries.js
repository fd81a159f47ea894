/* An event group's page asks each of its events for this browser's entry there (/t/<slug>/entry.json: the
   browser sends that event's own player cookie with it, which the group page itself never sees) and lists the
   answers, drawn by the server, under "Your entries", in the page's order. */
(function () {
  "use strict";

  var box = document.getElementById("your-entries");
  var list = document.getElementById("entry-list");
  if (!box || !list || !window.fetch) { return; }
  var events = Array.prototype.slice.call(document.querySelectorAll("[data-entry-url]"));
  Promise.all(events.map(function (event) {
    return fetch(event.getAttribute("data-entry-url"), { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : {}; })
      .catch(function () { return {}; });
  })).then(function (answers) {
    // The first entry's name, identities and pronouns, kept for this tab: registering in another event of the
    // group starts from them (static/registration_prefill.js); the player edits what differs.
    var group = document.getElementById("group-events");
    var profile = answers.filter(function (a) { return a && a.profile; }).map(function (a) { return a.profile; })[0];
    if (profile && group && window.sessionStorage) {
      try {
        profile.group = group.getAttribute("data-group");
        window.sessionStorage.setItem("sass-group-profile", JSON.stringify(profile));
      } catch (e) { /* storage full or off: the form stays empty */ }
    }
    var html = answers.map(function (a) { return a && a.entry ? a.entry : ""; }).join("");
    if (!html) { return; }
    list.innerHTML = html;
    box.hidden = false;
  });
})();
