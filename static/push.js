/* The player's "Notify me" switch (templates/push/_switch.html): asks the browser's permission only when tapped,
   subscribes with the server's VAPID key through the service worker (static/push_worker.js), and posts the
   subscription to the player's link; "Stop notifications" takes it back. The page also registers the worker
   when the browser can, so the last page is kept for when the hall's Wi-Fi drops. */
(function () {
  "use strict";
  var box = document.getElementById("push-box");
  if (!box || !("serviceWorker" in navigator)) {
    if (box && document.getElementById("push-state")) {
      document.getElementById("push-state").textContent = "This browser cannot show notifications.";
    }
    return;
  }
  var on = document.getElementById("push-on"), stop = document.getElementById("push-stop");
  var state = document.getElementById("push-state");
  var registering = navigator.serviceWorker.register(box.getAttribute("data-worker"), { scope: "/" });
  var keep = function (reg) {  // the event's pairings and standings, kept by the worker for when the network goes
    if (reg.active) {
      reg.active.postMessage({ keep: (box.getAttribute("data-keep") || "").split(" ").filter(Boolean) });
    }
  };
  // when the page opens, and when its parts change (a round published, a result in: static/player_live.js)
  document.addEventListener("sass:parts", function () { navigator.serviceWorker.ready.then(keep); });
  navigator.serviceWorker.ready.then(keep).catch(function () {});
  if (!on) { return; }  // push is off here: the worker still keeps the pages for offline use
  if (!("PushManager" in window) || !("Notification" in window)) {
    state.textContent = "This browser cannot show notifications: keep this page open, it updates itself.";
    return;
  }
  var say = function (text) { state.textContent = text; };
  var show = function (subscribed) { on.hidden = subscribed; stop.hidden = !subscribed; };
  var key = function () {
    var text = box.getAttribute("data-key").replace(/-/g, "+").replace(/_/g, "/");
    var raw = window.atob(text + "===".slice((text.length + 3) % 4));
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) { bytes[i] = raw.charCodeAt(i); }
    return bytes;
  };
  var post = function (url, body) {
    return fetch(url, { method: "POST", credentials: "same-origin", body: JSON.stringify(body),
                        headers: { "Content-Type": "application/json", "X-CSRFToken": box.getAttribute("data-csrf") } })
      .then(function (r) {
        return r.json().catch(function () { return {}; }).then(function (answer) {
          if (!r.ok) { throw new Error(answer.error || "The server refused it (" + r.status + ")."); }
          return answer;
        });
      });
  };
  registering.then(function (reg) { return reg.pushManager.getSubscription(); })
    .then(function (sub) {
      show(!!sub && Notification.permission === "granted");
      if (sub) { say("Notifications are on for this device."); }
    })
    .catch(function () { show(false); });
  on.addEventListener("click", function () {
    on.disabled = true;
    say("Asking your browser…");
    Notification.requestPermission()
      .then(function (permission) {
        if (permission !== "granted") {
          throw new Error("Notifications are blocked for this site: allow them in the browser's settings.");
        }
        return navigator.serviceWorker.ready;
      })
      .then(function (reg) {
        return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key() });
      })
      .then(function (sub) { return post(box.getAttribute("data-subscribe"), sub.toJSON()); })
      .then(function () { show(true); say("Notifications are on for this device."); })
      .catch(function (e) { say(e.message || "Notifications could not be turned on."); })
      .then(function () { on.disabled = false; });
  });
  stop.addEventListener("click", function () {
    stop.disabled = true;
    navigator.serviceWorker.ready
      .then(function (reg) { return reg.pushManager.getSubscription(); })
      .then(function (sub) {
        if (!sub) { return null; }
        var endpoint = sub.endpoint;
        return sub.unsubscribe().then(function () { return post(box.getAttribute("data-stop"), { endpoint: endpoint }); });
      })
      .then(function () { show(false); say("Notifications are off for this device."); })
      .catch(function (e) { say(e.message || "Notifications could not be turned off."); })
      .then(function () { stop.disabled = false; });
  });
})();
