/* SASS's service worker (served at /push-worker.js, scope /).
   - push: shows the message the server sent (title, body) and opens the player's page on a tap.
   - offline: a player's page and the event's pairings and standings (and their styles and scripts) are fetched
     from the network first; each answer is kept, and shown when the network is gone, with a banner saying when it
     was fetched, so nothing stale passes for current. */
"use strict";
var CACHE = "sass-pages-v1";
var KEPT = /^\/t\/[^/]+(\/p\/[^/]+|\/pairings(\/\d+)?|\/standings)?\/?$/;

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = { body: event.data && event.data.text() }; }
  event.waitUntil(self.registration.showNotification(data.title || "SASS", {
    body: data.body || "", tag: data.tag || undefined, renotify: true, data: { url: data.url || "/" }
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (open) {
    for (var i = 0; i < open.length; i++) {
      if (open[i].url === url && "focus" in open[i]) { return open[i].navigate(url).then(function (c) { return c && c.focus(); }); }
    }
    return self.clients.openWindow(url);
  }));
});

var stamped = function (response) {
  var headers = new Headers(response.headers);
  headers.set("X-Sass-Fetched", new Date().toISOString());
  return response.clone().text().then(function (text) {
    return new Response(text, { status: response.status, statusText: response.statusText, headers: headers });
  });
};

var offline = function (kept) {
  var when = new Date(kept.headers.get("X-Sass-Fetched") || Date.now());
  var time = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  return kept.text().then(function (text) {
    var banner = '<p class="offline-banner" role="alert"><strong>No network.</strong> This page as it was at ' +
      time + ": it may have changed since. It comes back by itself when the network does.</p>";
    text = text.replace(/<main([^>]*)>/, function (m) { return m + banner; });
    return new Response(text, { status: 200, headers: { "Content-Type": "text/html; charset=utf-8" } });
  });
};

self.addEventListener("message", function (event) {  // a player's page asks to keep its event's other pages
  var urls = (event.data && event.data.keep) || [];
  event.waitUntil(Promise.all(urls.filter(function (u) {
    var url = new URL(u, self.location.origin);
    return url.origin === self.location.origin && KEPT.test(url.pathname);
  }).map(function (u) {
    return fetch(u, { cache: "no-cache", credentials: "same-origin" }).then(function (response) {
      if (!response.ok) { return null; }
      return stamped(response).then(function (s) {
        return caches.open(CACHE).then(function (cache) { return cache.put(u, s); });
      });
    }).catch(function () { return null; });
  })));
});

var STATIC = /^\/static\//;

var keepStatic = function (event) {  // the kept pages' styles and scripts: from the network first, else kept
  event.respondWith(fetch(event.request).then(function (response) {
    if (response.ok) {
      var copy = response.clone();
      event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.put(event.request, copy); }));
    }
    return response;
  }).catch(function () {
    return caches.open(CACHE).then(function (cache) { return cache.match(event.request); }).then(function (kept) {
      return kept || Response.error();
    });
  }));
};

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) { return; }
  if (STATIC.test(url.pathname)) { keepStatic(event); return; }
  if (request.mode !== "navigate" || !KEPT.test(url.pathname)) { return; }
  // revalidated, never the browser's own copy: offline, only the kept copy under its banner may answer
  event.respondWith(fetch(request.url, { cache: "no-cache", credentials: "same-origin", redirect: "manual" })
    .then(function (response) {
    if (response.ok) {
      var copy = response.clone();
      event.waitUntil(stamped(copy).then(function (s) {
        return caches.open(CACHE).then(function (cache) { return cache.put(request, s); });
      }));
    }
    return response;
  }).catch(function () {
    return caches.open(CACHE).then(function (cache) { return cache.match(request); }).then(function (kept) {
      if (kept) { return offline(kept); }
      return new Response("<!doctype html><title>No network</title><p>No network, and this page was never opened " +
        "on this device. Try again when the network is back.</p>", { status: 503, headers: { "Content-Type": "text/html" } });
    });
  }));
});
