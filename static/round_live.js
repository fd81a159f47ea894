/* The TO's round page: results and players' reports appear without a reload (an ETag'd poll every 4 s),
   "Unreported only" hides the tables that are done, "Go to" finds a table or a player, and a result tap is
   saved in the background with a "Saved" note and the parts of the page it changed swapped in as the server
   rendered them (the forms still post and redirect where this script is off). */
(function () {
  "use strict";
  var root = document.getElementById("round-live");
  if (!root) { return; }
  var filter = document.getElementById("only-open");
  if (filter) {
    filter.addEventListener("change", function () { root.classList.toggle("only-open", filter.checked); });
  }

  var setText = function (el, text) { if (el && el.textContent !== text) { el.textContent = text; } };
  var rowOf = function (id) { return root.querySelector('ol.matches > li[data-match="' + id + '"]'); };

  /* ---------------------------------------------------------------- go to a table or a player */

  /* A name as people type it (app/core/names.py: name_key), as static/poll.js folds it. */
  var fold = function (text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g, "")
      .toLowerCase().replace(/\u00df/g, "ss").replace(/\s+/g, " ").trim();
  };
  var found = null;
  var highlight = function (row) {
    if (found) { found.classList.remove("found"); }
    found = row;
    if (!row) { return; }
    row.classList.add("found");
    row.scrollIntoView({ block: "center" });
    if (window.history.replaceState) { window.history.replaceState(null, "", "#" + row.id); }
    var button = row.querySelector("button, summary");
    if (button) { button.focus({ preventScroll: true }); }
  };
  var jump = document.getElementById("jump"), jumpTo = document.getElementById("jump-to");
  var jumpStatus = document.getElementById("jump-status");
  if (jump && jumpTo) {
    var last = { query: "", index: -1 };
    jump.addEventListener("submit", function (event) {
      event.preventDefault();
      var raw = jumpTo.value.trim(), q = fold(raw), hits;
      if (!q) { return; }
      if (/^\d+$/.test(raw)) {
        hits = [document.getElementById("t" + parseInt(raw, 10))].filter(Boolean);
      } else {
        hits = Array.prototype.filter.call(root.querySelectorAll("ol.matches > li.match"), function (li) {
          return Array.prototype.some.call(li.querySelectorAll(".seat .name"), function (name) {
            return fold(name.textContent).indexOf(q) !== -1;
          });
        });
      }
      if (!hits.length) {
        highlight(null);
        setText(jumpStatus, "No table or player matches \u201c" + raw + "\u201d.");
        return;
      }
      /* Go again with the same name: the next table it matches. */
      last.index = last.query === q ? (last.index + 1) % hits.length : 0;
      last.query = q;
      highlight(hits[last.index]);
      setText(jumpStatus, hits.length > 1 ? (last.index + 1) + " of " + hits.length + ": Go again for the next" : "");
    });
  }
  if (window.location.hash && /^#t\d+$/.test(window.location.hash)) {
    var target = document.getElementById(window.location.hash.slice(1));
    if (target) { target.classList.add("found"); found = target; }
  }

  if (!window.fetch) { return; }
  var url = root.getAttribute("data-url");

  /* ---------------------------------------------------------------- a "Saved" note after each tap */

  var toast = document.getElementById("toast"), toastTimer = null;
  var say = function (text, bad) {
    if (!toast) { return; }
    toast.textContent = text;
    toast.classList.toggle("bad", !!bad);
    toast.hidden = false;
    window.clearTimeout(toastTimer);
    toastTimer = window.setTimeout(function () { toast.hidden = true; }, bad ? 8000 : 3000);
  };

  /* One table's state, from the poll or a saved result. */
  var applyTable = function (m) {
    var li = rowOf(m.id);
    if (!li) { return; }
    var state = m.state || (m.result === "bye" ? "bye" : "none");
    li.className = li.className.replace(/\breport-\S+/, "report-" + state);
    li.classList.toggle("waiting", m.result === null);
    var result = li.querySelector("[data-result]");
    if (result) {
      if (m.result === null) {
        if (!result.querySelector(".muted")) { result.innerHTML = '<span class="muted">no result</span>'; }
      } else { setText(result, m.label); }
    }
    var note = li.querySelector("[data-note]");
    if (note && m.note !== undefined) { setText(note, m.note); note.hidden = !m.note; }
    document.querySelectorAll('ol.matches > li[data-match="' + m.id + '"] .result-buttons button, ' +
                              '#dispute-list li[data-match="' + m.id + '"] .result-buttons button').forEach(function (b) {
      var chosen = b.value === m.result;
      b.classList.toggle("chosen", chosen);
      b.classList.toggle("secondary", !chosen);
      if (chosen) { b.setAttribute("aria-pressed", "true"); } else { b.removeAttribute("aria-pressed"); }
    });
  };

  /* The parts of the page a saved result changed (its row with the history, the progress line, the actions,
     the pairing tools), rendered by the server as a reload would show them, swapped in by id. Focus stays on
     the tapped button's counterpart in the new row. */
  var swap = function (fragments, form, button) {
    var focused = button && form.contains(document.activeElement) && root.contains(form) ? button.value : null;
    Object.keys(fragments).forEach(function (id) {
      var old = document.getElementById(id);
      if (!old) { return; }
      var holder = document.createElement("template");
      holder.innerHTML = fragments[id].trim();
      var fresh = holder.content.firstElementChild;
      if (!fresh) { old.remove(); return; }
      if (old === found) { fresh.classList.add("found"); found = fresh; }
      old.replaceWith(fresh);
      if (focused !== null && old.contains(form)) {
        var again = fresh.querySelector('form.result-buttons button[value="' + focused + '"]');
        if (again) { again.focus({ preventScroll: true }); }
      }
    });
  };

  var poll;  /* set below */
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || !form.matches || !form.matches("form.result-buttons, form.custom-result") ||
        !root.contains(form) || !window.FormData) { return; }
    var data = new FormData(form), button = event.submitter;
    if (form.classList.contains("result-buttons")) {
      if (!button || !button.name) { return; }  /* an old browser: let the form post */
      data.append(button.name, button.value);
    }
    event.preventDefault();
    if (form.getAttribute("aria-busy") === "true") { return; }
    form.setAttribute("aria-busy", "true");
    fetch(form.action, { method: "POST", body: data, credentials: "same-origin",
                         headers: { "Accept": "application/json" } })
      .then(function (r) {
        return r.json().catch(function () { return {}; })
          .then(function (body) { return { ok: r.ok, status: r.status, body: body }; });
      })
      .then(function (answer) {
        if (!answer.ok || !answer.body.id) {  /* a refusal, or a login page after the session ended */
          say("Not saved: " + (answer.body.error || (answer.ok ? "reload the page (logged out?) and tap again."
                                                     : "the server answered " + answer.status + ".")), true);
          return;
        }
        var m = answer.body;
        var custom = form.closest("details.custom");
        if (custom) { custom.open = false; form.reset(); }
        swap(m.fragments || {}, form, button);
        applyTable({ id: m.id, result: m.result, label: m.label, state: m.state, note: "" });
        say("Saved \u2713 table " + m.table + ": " + m.label);
        poll(true);
      })
      .catch(function () { say("Not saved: no connection. Tap again.", true); })
      .then(function () { form.removeAttribute("aria-busy"); });
  });

  /* ---------------------------------------------------------------- live updates */

  /* A dispute is settled from the top of the page: a copy of its table's result buttons (same form, same CSRF). */
  var addSettle = function (item, id) {
    var row = rowOf(id), form = row && row.querySelector("form.result-buttons");
    if (form) { item.appendChild(form.cloneNode(true)); }
  };
  document.querySelectorAll("#dispute-list li[data-match]").forEach(function (item) {
    addSettle(item, item.getAttribute("data-match"));
  });

  var apply = function (data) {
    Object.keys(data.counts).forEach(function (key) {
      setText(root.querySelector('[data-count="' + key + '"]'), String(data.counts[key]));
    });
    var line = document.getElementById("unreported-line"), open = 0;
    var disputes = [];
    data.tables.forEach(function (m) {
      if (m.result === null) { open += 1; }
      applyTable(m);
      if (m.state === "disputed") { disputes.push(m); }
    });
    if (line) {
      var total = line.getAttribute("data-tables");
      setText(line, open ? open + " of " + total + " results to report." : "All results are in.");
    }
    var box = document.getElementById("disputes"), list = document.getElementById("dispute-list");
    if (box && list) {
      box.hidden = disputes.length === 0;
      var shown = Array.prototype.map.call(list.children, function (li) {
        return li.getAttribute("data-key");
      }).join("|");
      var key = function (m) { return m.id + ":" + m.note; };
      if (shown === disputes.map(key).join("|")) { return; }  /* unchanged: leave the buttons alone */
      list.textContent = "";
      disputes.forEach(function (m) {
        var item = document.createElement("li"), link = document.createElement("a");
        item.setAttribute("data-match", m.id);
        item.setAttribute("data-key", key(m));
        link.href = "#t" + m.table;
        link.textContent = "Table " + m.table;
        item.appendChild(link);
        item.appendChild(document.createTextNode(": " + m.note));
        addSettle(item, m.id);
        list.appendChild(item);
      });
    }
  };

  var busy = false, again = false;
  poll = function (now) {
    if (busy) { again = again || now === true; return; }
    if (document.hidden && now !== true) { return; }
    busy = true;
    fetch(url, { cache: "no-cache", credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) { if (data) { apply(data); } })
      .catch(function () {})
      .then(function () {
        busy = false;
        if (again) { again = false; poll(true); }
      });
  };
  window.setInterval(poll, 4000);
  document.addEventListener("visibilitychange", poll);
})();
