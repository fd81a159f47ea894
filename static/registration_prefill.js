/* Registering in an event of a group this device already entered: the registration form starts from the entry's
   name, identities and pronouns that the group's page kept for this tab (static/group_entries.js, from each
   event's /t/<slug>/entry.json). Only a form of the same group (data-group, set by the server while the form is
   fresh) and only empty fields are filled; the player edits anything, and the server checks it all on submit. */
(function () {
  "use strict";

  var form = document.getElementById("register-form");
  if (!form || !form.getAttribute("data-group") || !window.sessionStorage) { return; }
  var profile;
  try { profile = JSON.parse(window.sessionStorage.getItem("sass-group-profile") || "null"); } catch (e) { return; }
  if (!profile || profile.group !== form.getAttribute("data-group")) { return; }
  var filled = false;
  ["name", "corp_identity", "runner_identity", "pronouns"].forEach(function (name) {
    var field = form.elements[name];
    if (field && !field.value && profile[name]) {
      field.value = profile[name];
      filled = true;
    }
  });
  var note = document.getElementById("prefilled");
  if (filled && note) {
    document.getElementById("prefilled-from").textContent = profile.event || "this group";
    note.hidden = false;
  }
})();
