/* The TO's round page: results and players' reports appear without a reload (an ETag'd poll every 4 s),
   and "Unreported only" hides the tables that are done. */
(function () {
  "use strict";
  var root = document.getElementById("round-live");
  if (!root) { return; }
  var filter = document.getElementById("only-open");
  if (filter) {
    filter.addEventListener("change", function () { root.classList.toggle("only-open", filter.checked); });
  }
  if (!window.fetch) { return; }
  var url = root.getAttribute("data-url");

  var setText = function (el, text) { if (el && el.textContent !== text) { el.textContent = text; } };

  /* A dispute is settled from the top of the page: a copy of its table's result buttons (same form, same CSRF). */
  var addSettle = function (item, id) {
    var form = document.querySelector("#m" + id + " form.result-buttons");
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
      var li = document.getElementById("m" + m.id);
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
      if (note) { setText(note, m.note); note.hidden = !m.note; }
      li.querySelectorAll(".result-buttons button").forEach(function (b) {
        var chosen = b.value === m.result;
        b.classList.toggle("chosen", chosen);
        b.classList.toggle("secondary", !chosen);
        if (chosen) { b.setAttribute("aria-pressed", "true"); } else { b.removeAttribute("aria-pressed"); }
      });
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
        link.href = "#m" + m.id;
        link.textContent = "Table " + m.table;
        item.appendChild(link);
        item.appendChild(document.createTextNode(": " + m.note));
        addSettle(item, m.id);
        list.appendChild(item);
      });
    }
  };

  var busy = false;
  var poll = function () {
    if (busy || document.hidden) { return; }
    busy = true;
    fetch(url, { cache: "no-cache", credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) { if (data) { apply(data); } })
      .catch(function () {})
      .then(function () { busy = false; });
  };
  window.setInterval(poll, 4000);
  document.addEventListener("visibilitychange", poll);
})();
