// tappbook: the little the pages need beyond plain forms. Everything works
// without it; with it, the table updates live, the screen stays awake, the
// other side's points show while typing, kontra is a stepper, and a deal
// saved while the server cannot be reached waits on the phone and is sent
// once it answers.
(function () {
  "use strict";
  var live = document.body.getAttribute("data-live");

  // Live: the server sends the game's version on every change and on every
  // (re)connect; a version not seen yet means the page is stale.
  function refresh() {
    fetch(location.href, { headers: { "X-Requested-With": "fetch" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("live"), old = document.getElementById("live");
        if (fresh && old) old.replaceWith(fresh);
      })
      .catch(function () {});
  }
  if (live && window.EventSource && document.getElementById("live")) {
    var seen = null;
    var es = new EventSource(live);
    es.onmessage = function (e) {
      if (seen !== null && e.data !== seen) refresh();
      seen = e.data;
    };
  }

  // Keep the screen awake while a game is open. The Wake Lock API exists
  // only in a secure context (HTTPS, localhost): over plain HTTP the page
  // says how else to keep the screen on.
  if (live && window.isSecureContext && navigator.wakeLock) {
    var lock = function () { navigator.wakeLock.request("screen").catch(function () {}); };
    lock();
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") lock();
    });
  } else if (live) {
    var hint = document.getElementById("wake");
    if (hint) hint.hidden = false;
  }

  // Points for either side: show what the other side has.
  function pointsHelper(root) {
    var form = root.querySelector("form.deal");
    if (!form) return;
    var total = +form.getAttribute("data-total"), pts = form.querySelector("#points"),
        out = form.querySelector("output.other");
    var show = function () {
      if (!pts || !out) return;
      var side = form.querySelector("input[name=points_side]:checked");
      var n = parseInt(pts.value, 10);
      if (isNaN(n) || n < 0 || n > total) { out.textContent = ""; return; }
      var mine = side && side.value === "opponents";
      out.textContent = out.getAttribute(mine ? "data-declarer" : "data-opponents").replace("%d", total - n);
    };
    form.addEventListener("input", show);
    form.addEventListener("change", show);
    show();
  }

  // Kontra as a stepper: − and + around the select of named levels.
  function steppers(root) {
    Array.prototype.forEach.call(root.querySelectorAll("select[data-stepper]"), function (sel) {
      var wrap = document.createElement("span");
      wrap.className = "stepper";
      var step = function (d, label) {
        var b = document.createElement("button");
        b.type = "button"; b.textContent = label; b.setAttribute("aria-label", label === "+" ? "kontra +" : "kontra −");
        b.addEventListener("click", function () {
          var i = sel.selectedIndex + d;
          if (i >= 0 && i < sel.options.length) sel.selectedIndex = i;
        });
        return b;
      };
      sel.parentNode.insertBefore(wrap, sel);
      wrap.appendChild(step(-1, "−"));
      wrap.appendChild(sel);
      wrap.appendChild(step(1, "+"));
    });
  }

  // Deals waiting to be sent. A form marked data-queue is sent by fetch;
  // when the server cannot be reached the post is kept in localStorage (with
  // the idempotency key the server put in the form when it was first shown)
  // and sent again until the server answers: the key makes a repeat of a
  // post that did arrive a replay, never a second deal.
  var QUEUE = "tappbook.waiting";
  var sending = false, timer = null, delay = 1000;

  function waiting() {
    try { return JSON.parse(localStorage.getItem(QUEUE)) || []; } catch (e) { return []; }
  }
  function keep(list) {
    try { localStorage.setItem(QUEUE, JSON.stringify(list)); } catch (e) {}
    banner();
  }
  function drop(key) {
    keep(waiting().filter(function (x) { return x.key !== key; }));
  }
  function banner() {
    var el = document.getElementById("queue");
    if (!el) return;
    var n = waiting().length;
    el.hidden = n === 0;
    if (n === 0) return;
    el.querySelector("strong").textContent = n === 1 ? el.getAttribute("data-one") : el.getAttribute("data-many").replace("{n}", n);
  }

  // show puts a page the server answered (a refusal next to its field, a
  // conflict with another phone) in place of this one, so that it is read.
  function show(html, url) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var main = doc.getElementById("main"), here = document.getElementById("main");
    if (!main || !here) { document.documentElement.innerHTML = html; return; }
    here.replaceWith(main);
    document.title = doc.title;
    try { history.replaceState(null, "", url); } catch (e) {}
    init(main);
  }

  function retryLater() {
    if (timer) return;
    timer = setTimeout(function () { timer = null; flush(); }, delay);
    delay = Math.min(delay * 2, 5000);
  }

  // flush sends the oldest waiting post; on an answer, the next.
  function flush() {
    var list = waiting();
    if (sending || list.length === 0) { banner(); return; }
    var item = list[0];
    sending = true;
    fetch(item.url, {
      method: "POST", body: item.body, credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded" }
    }).then(function (r) {
      return r.text().then(function (html) {
        sending = false;
        if (r.status >= 500) { retryLater(); return; } // nothing was changed: try again
        delay = 1000;
        drop(item.key);
        if (r.ok && r.redirected) {
          if (item.page === location.href) location.assign(r.url);
          else flush();
          return;
        }
        show(html, item.url);
        flush();
      });
    }, function () {
      sending = false;
      banner();
      retryLater();
    });
  }

  function queueForms(root) {
    Array.prototype.forEach.call(root.querySelectorAll("form[data-queue]"), function (form) {
      form.addEventListener("submit", function (e) {
        if (!window.fetch || !window.localStorage || !window.URLSearchParams) return; // a plain post
        e.preventDefault();
        var key = form.querySelector("input[name=idempotency_key]");
        var item = {
          url: form.action, page: location.href, at: Date.now(),
          body: new URLSearchParams(new FormData(form)).toString(),
          key: key ? key.value : String(Date.now())
        };
        var list = waiting().filter(function (x) { return x.key !== item.key; });
        list.push(item);
        keep(list);
        delay = 1000;
        flush();
      });
    });
  }

  function init(root) {
    pointsHelper(root);
    steppers(root);
    queueForms(root);
  }
  init(document);
  banner();
  flush();
  window.addEventListener("online", flush);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") flush();
  });

  // Installable and readable offline over HTTPS: the service worker keeps
  // the pages last seen. (Over plain HTTP browsers allow no service worker.)
  if ("serviceWorker" in navigator && location.protocol === "https:") {
    navigator.serviceWorker.register("/sw.js").catch(function () {});
  }
})();
