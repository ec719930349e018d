// tappbook's service worker, registered over HTTPS only: the pages a phone
// has seen open again when the server cannot be reached, with the state
// they last showed. The network always comes first, so a page is never
// older than it must be; nothing that writes passes through here (a deal
// typed offline waits in the page's own queue, app.js).
"use strict";
// The server writes in the static files by their content hash and a
// version made of those hashes (internal/web, serviceWorker): a release
// with other files is a worker of other bytes, which the browser installs,
// and its files are cached under the addresses its pages link.
var VERSION = "dev";
// The path the app is served under (--public-url's, such as "/tapp"),
// written in by the server too; "" at a name's root.
var ROOT = "";
var SHELL = ["/static/app.css", "/static/app.js", "/static/icon-192.png", "/manifest.webmanifest"];
var STATIC = "tappbook-static-" + VERSION; // this release's files, let go with it
var PAGES = "tappbook-pages"; // the pages seen, kept across releases

self.addEventListener("install", function (e) {
  e.waitUntil(caches.open(STATIC).then(function (c) { return c.addAll(SHELL); }));
  self.skipWaiting();
});

self.addEventListener("activate", function (e) {
  e.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== STATIC && k !== PAGES; }).map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (e) {
  var req = e.request;
  var url = new URL(req.url);
  // Live streams, the API, the health (asked to know whether the server
  // answers) and every write go straight to the server.
  var path = url.pathname.startsWith(ROOT + "/") ? url.pathname.slice(ROOT.length) : url.pathname;
  if (req.method !== "GET" || url.origin !== self.location.origin ||
      path.startsWith("/api/") || path.endsWith("/live") || path === "/healthz") return;
  var file = path.startsWith("/static/");
  e.respondWith(fetch(req).then(function (res) {
    if (res.ok) {
      var copy = res.clone();
      caches.open(file ? STATIC : PAGES).then(function (c) { return c.put(url.pathname + url.search, copy); });
    }
    return res;
  }, function () {
    return caches.match(url.pathname + url.search, { ignoreVary: true }).then(function (hit) {
      // A page asked for with another query (a language, a saved deal) is
      // the page last seen; a file is only ever the one its address names.
      return hit || (file ? undefined : caches.match(url.pathname, { ignoreVary: true }));
    }).then(function (hit) {
      return hit || Response.error();
    });
  }));
});
