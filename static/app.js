// tappbook: the little the pages need beyond plain forms. Everything works
// without it; with it, the table updates live, the screen stays awake, the
// other side's points show while typing, and kontra is a stepper.
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
      });
  }
  if (live && window.EventSource && document.getElementById("live")) {
    var seen = null;
    var es = new EventSource(live);
    es.onmessage = function (e) {
      if (seen !== null && e.data !== seen) refresh();
      seen = e.data;
    };
  }

  // Keep the screen awake while a game is open.
  if (live && navigator.wakeLock) {
    var lock = function () { navigator.wakeLock.request("screen").catch(function () {}); };
    lock();
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") lock();
    });
  }

  // Points for either side: show what the other side has.
  var form = document.querySelector("form.deal");
  if (form) {
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
  Array.prototype.forEach.call(document.querySelectorAll("select[data-stepper]"), function (sel) {
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
})();
