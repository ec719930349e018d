// tappbook: "My evenings". The evenings and groups this phone has opened
// are kept in its localStorage, and nowhere else: a page that shows one
// describes it in #mine-visit, and the start page lists them, the most
// recently opened first, from the rows of its #mine-row template.
(function () {
  "use strict";
  var KEY = "tappbook.mine", MAX = 50;
  // The path the app is served under (--public-url's), "" at a name's
  // root: a read-only link is {ROOT}/r/….
  var ROOT = document.body.getAttribute("data-root") || "";
  function readOnly(href) { return href.indexOf(ROOT + "/r/") === 0; }

  function load() {
    try {
      var v = JSON.parse(localStorage.getItem(KEY) || "[]");
      return Array.isArray(v) ? v : [];
    } catch (e) { return []; }
  }
  function save(list) {
    try { localStorage.setItem(KEY, JSON.stringify(list.slice(0, MAX))); } catch (e) { /* private mode: nothing kept */ }
  }

  var visit = document.getElementById("mine-visit");
  if (visit) {
    var d = visit.dataset;
    var seen = { kind: d.kind, href: d.href, same: d.same || "", variant: d.variant || "", title: d.title,
      players: d.players, started: d.started, closed: d.closed !== undefined, group: d.group || "",
      again: d.again || "", againToken: d.againToken || "",
      next: d.nextPlayers ? { variant: d.nextVariant || "", players: d.nextPlayers, dealer: d.nextDealer || "" } : null,
      at: Date.now() };
    var kept = load();
    // One entry for an evening opened by both its links: the link that
    // writes is kept, whichever was opened last.
    var same = function (e) {
      return e && (e.href === seen.href || (seen.same !== "" && (e.same === seen.same || e.href === seen.same)));
    };
    if (readOnly(seen.href)) {
      kept.forEach(function (e) {
        if (same(e) && !readOnly(e.href)) {
          seen.href = e.href; seen.group = e.group; seen.again = e.again; seen.againToken = e.againToken; seen.next = e.next;
        }
      });
    }
    save([seen].concat(kept.filter(function (e) { return !same(e); })));
  }

  var section = document.getElementById("mine"), row = document.getElementById("mine-row");
  if (!section || !row) return;
  var list = load(), ul = section.querySelector("ul.mine"), lang = document.documentElement.lang, names = {};
  try { names = JSON.parse(section.dataset.variants || "{}"); } catch (e) { /* the titles as kept */ }
  list.forEach(function (e) {
    if (!e || typeof e.href !== "string" || e.href.charAt(0) !== "/") return;
    var li = row.content.firstElementChild.cloneNode(true);
    var a = li.querySelector(".mine-link");
    a.href = e.href;
    li.querySelector(".mine-title").textContent = (e.variant && names[e.variant]) || e.title || "";
    var state = e.kind === "group" ? section.dataset.group : (e.closed ? section.dataset.closed : section.dataset.open);
    if (readOnly(e.href)) state += " · " + section.dataset.readOnly;
    li.querySelector(".mine-state").textContent = state;
    li.querySelector(".mine-players").textContent = e.players || "";
    var when = new Date(e.started);
    li.querySelector(".mine-date").textContent = isNaN(when) ? "" : when.toLocaleDateString(lang);
    var form = li.querySelector(".mine-again");
    if (e.again && (e.kind === "group" || e.closed)) {
      form.action = e.again;
      // What the tap starts, said before it: the game, the seats, who
      // deals first (in the start page's language).
      var next = li.querySelector(".mine-next");
      if (e.next && typeof e.next.players === "string" && section.dataset.nextAbout) {
        next.textContent = section.dataset.nextAbout.replace("{variant}", names[e.next.variant] || e.title || "")
          .replace("{players}", e.next.players).replace("{dealer}", e.next.dealer || "");
        next.hidden = false;
      }
      if (typeof e.againToken === "string" && e.againToken) {
        var token = document.createElement("input");
        token.type = "hidden";
        token.name = "form_token";
        token.value = e.againToken;
        form.appendChild(token);
      }
    } else {
      form.remove();
    }
    ul.appendChild(li);
  });
  if (ul.children.length > 0) section.hidden = false;
  section.querySelector(".mine-forget").addEventListener("click", function () {
    try { localStorage.removeItem(KEY); } catch (e) { /* nothing kept */ }
    section.hidden = true;
  });
})();
