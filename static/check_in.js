/* The roll call (templates/check_in/index.html): filter the players as you type (the rows carry the server's name
   keys; the typed text's key is asked of the server: static/name_key.js), and send a tap without leaving the page,
   so the search and the scroll stay where they are in a noisy hall: the server answers with the row and the counts
   it drew, swapped in here. Without JavaScript the forms post and the page comes back at the row. */
(function () {
  "use strict";
  var list = document.getElementById("roll-call");
  if (!list) { return; }
  var input = document.getElementById("find"), none = document.getElementById("no-match");

  var current = "";  /* the server's key of the search text now shown */
  var show = function (q) {
    current = q;
    var shown = 0;
    Array.prototype.forEach.call(list.children, function (row) {
      var hit = !q || row.getAttribute("data-names").indexOf(q) !== -1;
      row.hidden = !hit;
      if (hit) { shown += 1; }
    });
    if (none) { none.hidden = shown > 0; }
  };
  if (input && window.sassNameKey) {
    var keyUrl = input.getAttribute("data-key-url"), typing = null;
    input.addEventListener("input", function () {
      var text = input.value;
      window.clearTimeout(typing);
      if (!text) { show(""); return; }
      typing = window.setTimeout(function () {
        window.sassNameKey(keyUrl, text).then(function (q) {
          if (input.value === text) { show(q); }
        }, function () { /* offline: the Find button asks the server */ });
      }, 150);
    });
  }

  var say = function (text, ok) {
    var box = document.getElementById("roll-call-said");
    if (!box) {
      box = document.createElement("p");
      box.id = "roll-call-said";
      box.setAttribute("role", "status");
      list.parentNode.insertBefore(box, list);
    }
    box.className = ok ? "flash" : "flash error";
    box.textContent = text;
  };

  /* "Pairing round 1 now: ...", as the server draws it after each tick and poll (it names who would be dropped) */
  var swapPlan = function (html) {
    var plan = document.getElementById("roll-call-plan");
    if (plan && typeof html === "string") { plan.outerHTML = html; }
  };

  if (!window.fetch || !window.FormData) { return; }
  var pending = 0, taps = 0;  /* taps on their way, and made: a poll sent before a tap is not drawn after it */

  /* Phones' check-ins and other staff's ticks: the rows and counts as the server draws them, every 4 s (a 304
     while the event is unchanged). */
  var liveUrl = list.getAttribute("data-live-url"), etag = '"' + list.getAttribute("data-etag") + '"';
  var poll = function () {
    if (document.hidden || pending) { return; }
    var sent = taps;
    fetch(liveUrl, { cache: "no-store", credentials: "same-origin", headers: { "If-None-Match": etag } })
      .then(function (r) {
        if (r.status !== 200) { return null; }
        etag = r.headers.get("ETag") || etag;
        return r.json();
      })
      .then(function (data) {
        if (!data || pending || sent !== taps) { return; }
        var focused = document.activeElement && document.activeElement.closest &&
          document.activeElement.closest("#roll-call li");
        var focusedId = focused ? focused.id : null;
        list.innerHTML = data.rows;
        show(current);
        var counts = document.getElementById("check-in-counts");
        if (counts && data.counts) { counts.outerHTML = data.counts; }
        swapPlan(data.plan);
        var again = focusedId && document.getElementById(focusedId);
        if (again) { again.querySelector("button").focus(); }
      })
      .catch(function () {});
  };
  if (liveUrl) {
    window.setInterval(poll, 4000);
    document.addEventListener("visibilitychange", poll);
  }

  list.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.hasAttribute("data-roll-call")) { return; }
    event.preventDefault();
    pending += 1;
    taps += 1;
    var button = form.querySelector("button");
    button.disabled = true;
    fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin",
                         headers: { "Accept": "application/json" } })
      .then(function (r) {
        if (!r.ok) { throw new Error(String(r.status)); }
        return r.json();
      })
      .then(function (answer) {
        pending = Math.max(0, pending - 1);
        var row = form.closest("li");
        if (answer.row) {
          var holder = document.createElement("ul");
          holder.innerHTML = answer.row;
          var fresh = holder.firstElementChild;
          fresh.hidden = row.hidden;
          row.parentNode.replaceChild(fresh, row);
          fresh.querySelector("button").focus();
        } else if (row) {
          row.parentNode.removeChild(row);
        }
        var counts = document.getElementById("check-in-counts");
        if (counts && answer.counts) { counts.outerHTML = answer.counts; }
        swapPlan(answer.plan);
        say(answer.message, answer.ok);
      })
      .catch(function () {
        pending = Math.max(0, pending - 1);
        button.disabled = false;
        form.submit();  /* the server decides, the page comes back */
      });
  });
})();
