// tappbook's service worker, registered over HTTPS only: the pages a phone
// has seen open again when the server cannot be reached, with the state
// they last showed. The network always comes first, so a page is never
// older than it must be; nothing that writes passes through here (a deal
// typed offline waits in the page's own queue, app.js).
"use strict";
var CACHE = "tappbook-1";
var SHELL = ["/static/app.css", "/static/app.js", "/static/icon-192.png", "/manifest.webmanifest"];

self.addEventListener("install", function (e) {
  e.waitUntil(caches.open(CACHE).then(function (c) { return c.addAll(SHELL); }));
  self.skipWaiting();
});

self.addEventListener("activate", function (e) {
  e.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== CACHE; }).map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (e) {
  var req = e.request;
  var url = new URL(req.url);
  // Live streams, the API and every write go straight to the server.
  if (req.method !== "GET" || url.origin !== self.location.origin ||
      url.pathname.startsWith("/api/") || url.pathname.endsWith("/live")) return;
  e.respondWith(fetch(req).then(function (res) {
    if (res.ok) {
      var copy = res.clone();
      caches.open(CACHE).then(function (c) { return c.put(url.pathname + url.search, copy); });
    }
    return res;
  }, function () {
    return caches.match(url.pathname + url.search, { ignoreVary: true }).then(function (hit) {
      return hit || caches.match(url.pathname, { ignoreVary: true });
    }).then(function (hit) {
      return hit || Response.error();
    });
  }));
});
