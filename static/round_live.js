/* The TO's round page: results, players' reports and disputes appear without a reload (a poll every 4 s asks the
   server which parts of the page changed and swaps them in as the server drew them), "Unreported only" hides the
   tables that are done, "Go to" finds a table or a player, and a result tap is saved in the background with a
   "Saved" note and the parts it changed swapped in (the forms still post and redirect where this script is off).
   Markup comes from the server only (templates/rounds/_parts.html), names' keys too (static/name_key.js). */
(function () {
  "use strict";
  var root = document.getElementById("round-live");
  if (!root) { return; }
  var filter = document.getElementById("only-open");
  if (filter) {
    filter.addEventListener("change", function () { root.classList.toggle("only-open", filter.checked); });
  }

  var setText = function (el, text) { if (el && el.textContent !== text) { el.textContent = text; } };

  /* ---------------------------------------------------------------- go to a table or a player */

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
  if (jump && jumpTo && window.sassNameKey) {
    var last = { query: "", index: -1 };
    var go = function (query, raw, hits) {
      if (!hits.length) {
        highlight(null);
        setText(jumpStatus, "No table or player matches \u201c" + raw + "\u201d.");
        return;
      }
      /* Go again with the same name: the next table it matches. */
      last.index = last.query === query ? (last.index + 1) % hits.length : 0;
      last.query = query;
      highlight(hits[last.index]);
      setText(jumpStatus, hits.length > 1 ? (last.index + 1) + " of " + hits.length + ": Go again for the next" : "");
    };
    jump.addEventListener("submit", function (event) {
      event.preventDefault();
      var raw = jumpTo.value.trim();
      if (!raw) { return; }
      if (/^\d+$/.test(raw)) {
        go("#" + raw, raw, [document.getElementById("t" + parseInt(raw, 10))].filter(Boolean));
        return;
      }
      /* A name: its key, as the server's ?find= compares it, against each seat's key. */
      window.sassNameKey(jumpTo.getAttribute("data-key-url"), raw).then(function (q) {
        if (!q || jumpTo.value.trim() !== raw) { return; }
        go(q, raw, Array.prototype.filter.call(root.querySelectorAll("ol.matches > li.match"), function (li) {
          return Array.prototype.some.call(li.querySelectorAll(".seat[data-key]"), function (seat) {
            return seat.getAttribute("data-key").indexOf(q) !== -1;
          });
        }));
      }, function () { jump.submit(); });  /* no answer: the server finds it (?find=) */
    });
  }
  if (window.location.hash && /^#t\d+$/.test(window.location.hash)) {
    var target = document.getElementById(window.location.hash.slice(1));
    if (target) { target.classList.add("found"); found = target; }
  }

  if (!window.fetch) { return; }
  var url = root.getAttribute("data-url");

  /* ---------------------------------------------------------------- swapping in the server's parts */

  /* Part id -> the server's digest of it as this page shows it, and as the server last described it. */
  var digests = JSON.parse(root.getAttribute("data-digests") || "{}"), latest = Object.assign({}, digests);

  /* Whether the user is busy in a part: a form opened inside it (a custom result, the pairing edit) or a field
     being typed in. Such a part waits, its digest unchanged, and comes with the first poll after. */
  var typing = function (el) {
    var active = document.activeElement;
    return el.contains(active) && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName);
  };
  var busy = function (el) { return !!el.querySelector("details[open] form") || typing(el); };
  /* An opened form the server no longer draws (the pairing edit once a result is in) is no longer the user's
     work: its part comes anyway, unless they are typing in it. */
  var gone = function (old, fresh) {
    return !typing(old) && Array.prototype.every.call(old.querySelectorAll("details[open]"), function (details) {
      return !details.querySelector("form") || !details.className ||
        !fresh.querySelector("details." + details.classList[0]);
    });
  };

  /* The control of `fresh` that stands where `el` stood in `old`: the same button of the same kind of form, else
     the same place among the part's controls. */
  var CONTROLS = "a[href], button, summary, input, select, textarea";
  var counterpart = function (el, old, fresh) {
    var form = el.closest("form");
    if (form && el.tagName === "BUTTON" && el.value) {
      var same = fresh.querySelector("form." + form.classList[0] + ' button[value="' + CSS.escape(el.value) + '"]');
      if (same) { return same; }
    }
    return fresh.querySelectorAll(CONTROLS)[Array.prototype.indexOf.call(old.querySelectorAll(CONTROLS), el)];
  };

  /* Swap in the parts the server drew (id -> HTML) with their digests. The part holding `acted` (the form just
     saved) is swapped even while busy. Focus, the "found" mark and opened histories carry over. */
  var swap = function (fragments, freshDigests, acted) {
    Object.keys(fragments).forEach(function (id) {
      var old = document.getElementById(id);
      if (!old) { return; }
      var holder = document.createElement("template");
      holder.innerHTML = fragments[id].trim();
      var fresh = holder.content.firstElementChild;
      if (!fresh) { return; }
      if (busy(old) && !(acted && old.contains(acted)) && !gone(old, fresh)) { return; }
      var focused = old.contains(document.activeElement) ? document.activeElement : null;
      if (old === found) { fresh.classList.add("found"); found = fresh; }
      old.querySelectorAll("details[open]").forEach(function (details) {
        var again = details.className && fresh.querySelector("details." + details.classList[0]);
        if (again && !details.querySelector("form")) { again.open = true; }
      });
      old.replaceWith(fresh);
      digests[id] = latest[id] = freshDigests[id];
      var target = focused && counterpart(focused, old, fresh);
      if (target) { target.focus({ preventScroll: true }); }
    });
  };

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
        swap(m.fragments || {}, m.digests || {}, form);
        say("Saved \u2713 table " + m.table + ": " + m.label);
        poll(true);
      })
      .catch(function () { say("Not saved: no connection. Tap again.", true); })
      .then(function () { form.removeAttribute("aria-busy"); });
  });

  /* ---------------------------------------------------------------- live updates */

  /* The digests (parts: null), revalidated with the ETag of what the page last heard (a 304 answers null);
     or the parts named. */
  var etag = '"' + root.getAttribute("data-etag") + '"';
  var ask = function (parts) {
    var address = new URL(url, window.location.href), headers = { "Accept": "application/json" };
    if (parts) { address.searchParams.set("parts", parts.join(",")); } else { headers["If-None-Match"] = etag; }
    return fetch(address, { cache: "no-store", credentials: "same-origin", headers: headers }).then(function (r) {
      if (r.status === 304 || !r.ok) { return null; }
      if (!parts) { etag = r.headers.get("ETag") || etag; }
      return r.json();
    });
  };

  /* The server's digests (null: unchanged since the last answer) against the page's: the parts that differ,
     and are not in the user's hands, are asked for a hundred at a time (the URL stays short). Tables added or
     taken away (a pairing edit on another device) reload the page, once the user is not typing in it. */
  var update = function (data) {
    if (data) {
      var rows = root.querySelectorAll("ol.matches > li.match");
      if (Object.keys(data.digests).some(function (id) { return !document.getElementById(id); }) ||
          Array.prototype.some.call(rows, function (row) { return !(row.id in data.digests); })) {
        if (!busy(root)) { window.location.reload(); }
        return null;
      }
      latest = data.digests;
    }
    var changed = Object.keys(latest).filter(function (id) {
      var part = document.getElementById(id);
      return part && digests[id] !== latest[id] && !typing(part);  /* a busy part may be gone: swap decides */
    });
    var batches = [];
    for (var i = 0; i < changed.length; i += 100) { batches.push(changed.slice(i, i + 100)); }
    return batches.reduce(function (done, batch) {
      return done.then(function () { return ask(batch); })
        .then(function (got) { if (got) { swap(got.fragments, got.digests, null); } });
    }, Promise.resolve());
  };

  var polling = false, again = false;
  poll = function (now) {
    if (polling) { again = again || now === true; return; }
    if (document.hidden && now !== true) { return; }
    polling = true;
    ask(null).then(update)
      .catch(function () {})
      .then(function () {
        polling = false;
        if (again) { again = false; poll(true); }
      });
  };
  window.setInterval(poll, 4000);
  document.addEventListener("visibilitychange", poll);
})();
