// tappbook: the little the pages need beyond plain forms. Everything works
// without it; with it, the table updates live, the screen stays awake, the
// other side's points show while typing, kontra is a stepper, choosing
// another contract keeps what was tapped, a deal's form half filled in is
// back after a reload, the forms keep what they show when another language
// is chosen, a Ramsch shows the last player's count, links are shared in
// one tap, the phone keeps what it saw of the history as a witness, and a
// deal saved while the server cannot be reached waits on the phone and is
// sent once it answers.
(function () {
  "use strict";
  var live = document.body.getAttribute("data-live");
  // The path the app is served under (--public-url's, such as "/tapp"),
  // "" at a name's root: the addresses this script makes start with it.
  var ROOT = document.body.getAttribute("data-root") || "";
  // stopLive lets the live stream go: the page no longer shows the table
  // (a record form put in its place without the server).
  var stopLive = function () {};
  // How long the live stream may be down before the page says so.
  var staleAfter = 8000;

  // Phones as witnesses: the phone keeps the last version and head hash of
  // the game's history it was shown, and asks the server whether its
  // history still holds them. A history cut or changed behind the server's
  // back, even mended so that its chain is whole, is said plainly.
  function witness() {
    var sec = document.getElementById("live");
    if (!sec || !window.fetch || !window.localStorage) return;
    var url = sec.getAttribute("data-witness"), v = parseInt(sec.getAttribute("data-version"), 10),
        head = sec.getAttribute("data-head");
    if (!url || !v || !head) return;
    var key = "tappbook.seen:" + location.pathname;
    var seen = null;
    try { seen = JSON.parse(localStorage.getItem(key)); } catch (e) {}
    // A closed evening's signed receipt is kept beside what the phone saw:
    // a note anyone can check later with the server's key, even if the
    // server is gone. A receipt kept before (an earlier close) is kept
    // until a new one arrives.
    var receipt = seen && seen.receipt;
    var write = function () { try { localStorage.setItem(key, JSON.stringify({ v: v, h: head, receipt: receipt })); } catch (e) {} };
    var remember = function () {
      write();
      if (!sec.hasAttribute("data-receipt")) return;
      fetch(sec.getAttribute("data-receipt-url"), { credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (t) { if (t) { receipt = t; write(); } })
        .catch(function () {});
    };
    if (!seen || !seen.v || !seen.h) { remember(); return; }
    if (seen.v === v && seen.h === head) { if (sec.hasAttribute("data-receipt") && !receipt) remember(); return; }
    fetch(url + "?version=" + encodeURIComponent(seen.v) + "&hash=" + encodeURIComponent(seen.h), { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (w) {
        if (!w) return;
        if (w.holds) { remember(); return; }
        // What this phone saw is kept, so that it goes on saying so.
        var el = document.getElementById("witness");
        if (!el) return;
        el.textContent = el.getAttribute(w.why === "cut" ? "data-cut" : "data-changed")
          .replace("{seen}", seen.v).replace("{now}", w.version);
        el.hidden = false;
      })
      .catch(function () {});
  }

  // Live: the server sends the game's version on every change and on every
  // (re)connect, and a ping every few seconds (its period in the data). A
  // version the page does not show means it is out of date: it fetches
  // itself again, and tries again until it has (a fetch lost to the
  // Wi-Fi left the page out of date until the next deal, with no word of
  // it). A stream that hears nothing for three pings hangs: the page says
  // so and connects again.
  if (live && window.EventSource && document.getElementById("live")) {
    var stale = document.getElementById("stale");
    var shown = document.getElementById("live").getAttribute("data-version"), latest = shown;
    var es = null, down = null, fetching = false, retry = null, fails = 0, quiet = null, beat = 25000, stopped = false;
    var say = function (outOfDate) { if (stale) stale.hidden = !outOfDate; };
    stopLive = function () {
      stopped = true;
      clearTimeout(quiet); clearTimeout(retry); clearTimeout(down);
      if (es) { es.close(); es = null; }
      say(false);
    };
    var refresh = function () {
      if (stopped || fetching || latest === shown) return;
      fetching = true;
      clearTimeout(retry);
      fetch(location.href, { headers: { "X-Requested-With": "fetch" } })
        .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
        .then(function (html) {
          if (stopped) return;
          var doc = new DOMParser().parseFromString(html, "text/html");
          var fresh = doc.getElementById("live"), old = document.getElementById("live");
          if (!fresh || !old) throw new Error("no live part");
          old.replaceWith(fresh); init(fresh); witness();
          shown = fresh.getAttribute("data-version");
          fetching = false; fails = 0;
          if (es && es.readyState === 1) say(false);
          refresh(); // the game moved on again meanwhile
        })
        .catch(function () {
          fetching = false;
          if (stopped) return;
          fails++;
          say(true);
          retry = setTimeout(refresh, Math.min(30000, 1000 * Math.pow(2, fails)));
        });
    };
    // A stream that brings nothing for three pings' time hangs.
    var watch = function () {
      clearTimeout(quiet);
      if (stopped) return;
      quiet = setTimeout(function () {
        say(true);
        if (es) { es.close(); es = null; }
        follow();
      }, 3 * beat);
    };
    // Something arrived: the stream is alive (an open stream that brings
    // nothing is not).
    var listen = function () {
      lastUp = Date.now();
      if (down) { clearTimeout(down); down = null; }
      if (!fetching && !fails) say(false);
      watch();
    };
    // The browser reconnects by itself after a lost connection; after an
    // error answer it stops, and the page tries again.
    var follow = function () {
      if (stopped) return;
      es = new EventSource(live);
      watch();
      es.onerror = function () {
        if (!down) down = setTimeout(function () { say(true); }, staleAfter);
        if (es && es.readyState === 2) { es = null; setTimeout(function () { if (!es) follow(); }, 5000); }
      };
      es.onmessage = function (e) {
        listen();
        latest = e.data;
        refresh();
      };
      es.addEventListener("ping", function (e) {
        var ms = parseInt(e.data, 10);
        if (ms > 0) beat = ms;
        listen();
      });
    };
    follow();
    window.addEventListener("offline", function () { say(true); });
    window.addEventListener("online", function () { if (!es) follow(); fails = 0; refresh(); });
    // A page left for another is let go of its stream: a browser keeps few
    // connections to one server (six over HTTP/1.1), and a page kept for
    // the back button with its stream open would hold one of them.
    window.addEventListener("pagehide", function () { clearTimeout(quiet); if (es) { es.close(); es = null; } });
    window.addEventListener("pageshow", function (e) { if (e.persisted && !es) { follow(); latest = null; refresh(); } });
  }

  // Keep the screen awake while a game is open (data-awake: not on a
  // closed evening's pages). The Wake Lock API exists only in a secure
  // context (HTTPS, localhost): over plain HTTP the page says how else to
  // keep the screen on.
  var awake = document.body.hasAttribute("data-awake");
  if (awake && window.isSecureContext && navigator.wakeLock) {
    var lock = function () { navigator.wakeLock.request("screen").catch(function () {}); };
    lock();
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") lock();
    });
  } else if (awake) {
    // Said once is enough: hidden with its button, it stays hidden on this
    // phone (the strip took a line of every page of every evening).
    var hint = document.getElementById("wake"), hideKey = "tappbook.wake-hidden", hidden = false;
    try { hidden = localStorage.getItem(hideKey) === "1"; } catch (e) {}
    if (hint && !hidden) {
      hint.hidden = false;
      var hide = hint.querySelector("[data-wake-hide]");
      if (hide) hide.addEventListener("click", function () {
        hint.hidden = true;
        try { localStorage.setItem(hideKey, "1"); } catch (e) {}
      });
    }
  }

  // Points for either side: show what the other side has, or, as soon as
  // it is typed, a count no cards make (in the server's own words, read as
  // the server reads it), so that a slip is seen while the deal is still
  // in mind; and such a deal is not sent, nor kept to send with the
  // server away, only to be refused later (rules.md: 0 to the pack's
  // points, never 1 for either side).
  function pointsHelper(root) {
    var form = root.querySelector("form.deal");
    if (!form) return;
    var total = +form.getAttribute("data-total"), pts = form.querySelector("#points"),
        out = form.querySelector("output.other");
    if (!pts || !out) return;
    var say = function (key, n) { return (out.getAttribute(key) || "").replace("{n}", n); };
    var wrong = function () {
      var typed = pts.value.trim();
      if (typed === "") return "";
      if (!/^[+-]?[0-9]+$/.test(typed)) return say("data-whole");
      var n = parseInt(typed, 10), side = form.querySelector("input[name=points_side]:checked");
      if (n < 0 || n > total) return say("data-over", n);
      var declarer = side && side.value === "opponents" ? total - n : n;
      if (declarer === 1) return say("data-one");
      if (declarer === total - 1) return say("data-minus-one", declarer);
      return "";
    };
    var show = function () {
      var bad = wrong(), typed = pts.value.trim();
      // The server's own message for the field is showing: not twice.
      var said = bad && document.getElementById("points-error");
      out.classList.toggle("bad", !!bad && !said);
      if (bad || typed === "") { out.textContent = said ? "" : bad; return; }
      var n = parseInt(typed, 10), side = form.querySelector("input[name=points_side]:checked");
      var mine = side && side.value === "opponents";
      out.textContent = out.getAttribute(mine ? "data-declarer" : "data-opponents").replace("%d", total - n);
    };
    form.addEventListener("input", show);
    form.addEventListener("change", show);
    // The last choice the deal needs made (a declarer, a partner, a trump,
    // won or lost), or a choice it may make besides (Württemberg's hearts)
    // once those are made: the points field takes the digits without a tap.
    form.addEventListener("change", function (e) {
      if (e.target.type !== "radio" || pts.value.trim() !== "") return;
      var open = Array.prototype.some.call(form.querySelectorAll("input[type=radio][required]"), function (r) {
        return !form.querySelector("input[type=radio][name='" + r.name + "']:checked");
      });
      if (!open) pts.focus();
    });
    // Before the form's own sending (the queue's, a listener on the form
    // too): the capture runs first on the form itself.
    form.addEventListener("submit", function (e) {
      if (!wrong()) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      show();
      pts.focus();
    }, true);
    show();
  }

  // Kontra as a stepper: − and + around the select of named levels.
  function steppers(root) {
    Array.prototype.forEach.call(root.querySelectorAll("select[data-stepper]"), function (sel) {
      var wrap = document.createElement("span");
      wrap.className = "stepper";
      var step = function (d, label) {
        var b = document.createElement("button");
        b.type = "button"; b.textContent = label;
        b.setAttribute("aria-label", sel.getAttribute(label === "+" ? "data-more" : "data-less") || label); // in the page's language
        b.addEventListener("click", function () {
          var i = sel.selectedIndex + d;
          if (i >= 0 && i < sel.options.length) {
            sel.selectedIndex = i;
            // Said as a choice of the select is (a script's is not): the
            // draft keeps it.
            sel.dispatchEvent(new Event("change", { bubbles: true }));
          }
        });
        return b;
      };
      sel.parentNode.insertBefore(wrap, sel);
      wrap.appendChild(step(-1, "−"));
      wrap.appendChild(sel);
      wrap.appendChild(step(1, "+"));
    });
  }

  // The end of an old-tapp evening with leftover units to cut for: once a
  // winner is chosen for each, the page shows what closing with that cut
  // gives (the server's own settlement, asked for with the choices), so
  // that who pays whom is seen before the evening is ended for good. The
  // settlement shown carries the game's version, which the close sends:
  // an evening changed since is not closed unseen. Until the answer for
  // the last choice is in, the one shown is marked as not it, and the
  // button waits.
  function cutPreview(root) {
    var form = root.querySelector("form[data-cut]");
    if (!form || !window.fetch || !window.URLSearchParams) return;
    var asked = 0, end = form.querySelector("button[type=submit]");
    var say = function (settle, words) {
      var p = settle.querySelector("p.working");
      if (!p) {
        p = document.createElement("p");
        p.className = "status working";
        settle.insertBefore(p, settle.firstChild);
      }
      p.textContent = words;
    };
    form.addEventListener("change", function () {
      var groups = {}, q = new URLSearchParams();
      Array.prototype.forEach.call(form.querySelectorAll("input[type=radio]"), function (r) {
        groups[r.name] = groups[r.name] || r.checked;
        if (r.checked) q.set(r.name, r.value);
      });
      for (var g in groups) if (!groups[g]) return;
      var mine = ++asked, settle = document.getElementById("settle");
      if (!settle) return;
      settle.classList.add("stale");
      say(settle, form.getAttribute("data-working"));
      if (end) end.disabled = true;
      // A Wi-Fi that hangs rather than refuses is given up on.
      var stop = window.AbortController ? new AbortController() : null;
      var late = stop && setTimeout(function () { stop.abort(); }, 6000);
      fetch(location.pathname + "?" + q.toString(), { headers: { "X-Requested-With": "fetch" }, signal: stop ? stop.signal : undefined })
        .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
        .then(function (html) {
          clearTimeout(late);
          if (mine !== asked) return; // a later choice's answer is the one to show
          var doc = new DOMParser().parseFromString(html, "text/html"),
              fresh = doc.getElementById("settle"), old = document.getElementById("settle");
          if (!doc.getElementById("close-form")) {
            // Closed meanwhile (another phone): the page as it is now.
            var main = doc.getElementById("main");
            if (main) { document.getElementById("main").replaceWith(main); init(main); }
            return;
          }
          if (!fresh || !old) throw new Error("no settlement");
          old.replaceWith(fresh);
          if (end) end.disabled = false;
        })
        .catch(function () {
          clearTimeout(late);
          if (mine !== asked) return;
          // The close still says what it gives, and refuses an evening
          // changed since the version shown.
          say(settle, form.getAttribute("data-unreachable"));
          if (end) end.disabled = false;
        });
    });
  }

  // Drafts: a deal's form keeps what was tapped and typed through a reload,
  // or a visit elsewhere and back in the same tab. Its inputs are
  // autocomplete="off", so that the browser never shows a deal already sent
  // as if it were not; instead the script keeps a draft in the tab's
  // sessionStorage (which plain HTTP allows) as it is filled in, and puts it
  // back when the same form is shown again. The server names the form (the
  // contracts' data-draft, there before a contract is chosen too): the game
  // and the deal it is for, a new deal by its number, a correction by the
  // deal and how often it has been entered; so a draft never lands on
  // another deal's form. Only what the person chose is kept, never the
  // hidden fields (the form's token and key, the deal's number). A draft is
  // dropped when its form is sent (the post waits in the queue until the
  // server answers: a reload meanwhile shows no deal already sent as
  // unsent), made again from the server's answer if that refuses it, and
  // dropped once the deal is saved.
  var DRAFT = "tappbook.draft:";
  // The fields a deal's form carries for itself, not what was chosen on
  // it: its token, key, and which deal (and version of it) it is for.
  var FORM_OWN = ["form_token", "idempotency_key", "expected_hand", "changes"];
  function draftDrop(name) {
    try { sessionStorage.removeItem(DRAFT + name); } catch (e) {}
  }
  // draftSweep drops the drafts that can no longer be shown: of new deals
  // before this one (saved, here or by another phone), of corrections of a
  // deal entered again since. A deal kept as a draft (recorded on this
  // phone after one refused, see keepAsDrafts) is not dropped: once a
  // number before this form's is taken, the kept deals move on, in their
  // order, to this deal's form and the ones after it, where each form says
  // which deal it holds (sayKeptDraft). What was typed on this form itself
  // stays.
  function draftSweep(name) {
    var p = name.split("/"), stale = [], kept = [];
    var prefix = DRAFT + p[0] + "/";
    try {
      for (var i = 0; i < sessionStorage.length; i++) {
        var k = sessionStorage.key(i);
        if (k.indexOf(prefix) !== 0) continue;
        var q = k.slice(DRAFT.length).split("/");
        if (p[1] === "new" && q[1] === "new") {
          var d = null;
          try { d = JSON.parse(sessionStorage.getItem(k)); } catch (e) {}
          if (d && d.kept) kept.push({ n: +q[2], draft: d });
          else if (+q[2] < +p[2]) stale.push(q.join("/"));
        } else if (p[1] === "edit" && q[1] === "edit" && q[2] === p[2] && +q[3] < +p[3]) stale.push(q.join("/"));
      }
      kept.sort(function (a, b) { return a.n - b.n; });
      var mine = sessionStorage.getItem(DRAFT + name), here = +p[2];
      if (p[1] === "new" && kept.length && kept[0].n < here && (mine === null || JSON.parse(mine).kept)) {
        kept.forEach(function (x) { sessionStorage.removeItem(prefix + "new/" + x.n); });
        kept.forEach(function (x, i) { sessionStorage.setItem(prefix + "new/" + (here + i), JSON.stringify(x.draft)); });
      }
    } catch (e) {}
    stale.forEach(draftDrop);
  }
  function draftName(root) {
    var nav = root.querySelector("nav.contracts[data-draft]");
    return nav ? nav.getAttribute("data-draft") : "";
  }
  function drafts(root, answered) {
    var name = draftName(root), form = root.querySelector("form.deal");
    // Storage may be switched off, and then even asking for it throws.
    try { if (!name || !window.sessionStorage || !window.URLSearchParams) return; } catch (e) { return; }
    draftSweep(name);
    var d = null;
    try { d = JSON.parse(sessionStorage.getItem(DRAFT + name)); } catch (e) {}
    var q = new URLSearchParams(location.search);
    if (!form) {
      // No contract chosen yet (the form's bare address): the one the
      // draft was typed for.
      if (d && d.contract && !answered && !q.has("contract")) return draftContract(d, q);
      return;
    }
    var contract = form.querySelector("input[name=contract]"), tout = form.querySelector("input[name=tout]");
    // What the form is shaped for: its contract, and tout, which asks
    // other questions. A draft is put back only onto a form of its shape.
    var shape = function () { return { contract: contract ? contract.value : "", tout: !!(tout && tout.checked) }; };
    var fields = function () {
      var f = {};
      Array.prototype.forEach.call(form.elements, function (el) {
        if (!el.name || el.type === "hidden" || el.type === "submit" || el.type === "button") return;
        if (el.type === "radio") {
          if (!Object.prototype.hasOwnProperty.call(f, el.name)) f[el.name] = null;
          if (el.checked) f[el.name] = el.value;
        } else if (el.type === "checkbox") f[el.name] = el.checked;
        else f[el.name] = el.value;
      });
      return f;
    };
    var save = function () {
      var s = shape();
      try { sessionStorage.setItem(DRAFT + name, JSON.stringify({ contract: s.contract, tout: s.tout, fields: fields() })); } catch (e) {}
    };
    if (answered) {
      // The server's answer to the form sent: it shows what was sent, and
      // why it was refused. That is the draft now, if it is the same deal's
      // form; the form of another deal (another phone recorded this one
      // meanwhile) shows the values to be checked, not to be kept for it.
      if (answered.draft === name) save();
      else if (d) {
        // That other deal's own draft is kept (a deal recorded after the
        // refused one on this phone): this form, showing the refused
        // deal's values, neither changes nor drops it.
        form.setAttribute("data-draftless", "");
        return;
      }
    } else if (d && d.fields) {
      var here = shape();
      if (d.contract === here.contract && !!d.tout === here.tout) {
        var fresh = JSON.stringify(fields());
        putValues(form, d.fields);
        if (d.kept) sayKeptDraft(form, d.kept);
        else if (JSON.stringify(fields()) !== fresh) sayDraftBack(form, name);
      } else if (!q.has("contract")) {
        // The form's bare address shows the contract the server starts
        // with (a correction's: the one recorded): the one the draft was
        // typed for instead.
        return draftContract(d, q);
      } else {
        // Another contract was chosen, with what was typed carried over
        // (keepTyped): the draft follows it.
        save();
      }
    }
    form.addEventListener("input", save);
    form.addEventListener("change", save);
    form.addEventListener("submit", function () { draftDrop(name); });
  }
  // putValues puts values (by name: a radio's or checkbox's chosen value,
  // true for a checkbox ticked, null for nothing chosen) onto a form's
  // fields that ask for them.
  function putValues(form, values) {
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.type === "hidden" || !Object.prototype.hasOwnProperty.call(values, el.name)) return;
      var v = values[el.name];
      if (el.type === "radio") el.checked = v !== null && el.value === v;
      else if (el.type === "checkbox") el.checked = v === true || v === el.value;
      else if (typeof v === "string" && (el.tagName !== "SELECT" ||
          Array.prototype.some.call(el.options, function (o) { return o.value === v; }))) el.value = v;
    });
  }
  // sayDraftBack says, at the top of a form filled in from its draft, that
  // it was, with a tap that clears the form: the draft may be of a deal
  // refused and left, whose values would otherwise be saved unseen (a
  // choice far down the form, say) as the next deal's.
  function sayDraftBack(form, name) {
    var words = document.body.getAttribute("data-draft-back"), nav = document.querySelector("#main nav.contracts");
    if (!words || !nav || document.querySelector("#main p.draft-back")) return;
    var p = document.createElement("p"), b = document.createElement("button");
    p.className = "status draft-back";
    p.textContent = words + " ";
    b.type = "button";
    b.textContent = document.body.getAttribute("data-draft-clear");
    b.addEventListener("click", function () {
      // The form as the server made it (reset goes back to the page's
      // own values), and the helpers told of it from each field, as a
      // change there is (a Ramsch's listens on its own fieldset); then no
      // draft: the cleared form is the one Record gives.
      form.reset();
      Array.prototype.forEach.call(form.elements, function (el) {
        // Not tout's: its change asks for the other shape of form, and
        // reset leaves the shape as it is.
        if (el.name && el.type !== "hidden" && el.name !== "tout") el.dispatchEvent(new Event("change", { bubbles: true }));
      });
      draftDrop(name);
      p.remove();
      var first = form.querySelector("input:not([type=hidden]), select");
      if (first) first.focus();
    });
    p.appendChild(b);
    nav.insertAdjacentElement("beforebegin", p);
  }
  // sayKeptDraft says, at the top of a form filled in from a deal kept on
  // this phone, which deal that was.
  function sayKeptDraft(form, hand) {
    var words = document.body.getAttribute("data-kept-draft"), nav = document.querySelector("#main nav.contracts");
    if (!words || !nav || document.querySelector("#main p.kept-draft")) return;
    var p = document.createElement("p");
    p.className = "status kept-draft";
    p.textContent = words.replace("{n}", hand);
    nav.insertAdjacentElement("beforebegin", p);
  }
  // draftContract asks for the form of the draft's contract, where the
  // draft is put back. That address names a contract: no second turn.
  function draftContract(d, q) {
    var nav = dealsHolder(), deals = nav && dealsOf(nav);
    if (away() && deals && showDeal(deals, d.contract, !!d.tout, null)) return false;
    q.set("contract", d.contract);
    if (d.tout) q.set("tout", "true");
    location.replace(location.pathname + "?" + q.toString());
    return false;
  }

  // Another contract keeps what was tapped and typed: the contract's link
  // carries the form's values, and the server fills them back in.
  function keepTyped(root) {
    var nav = root.querySelector("nav.contracts"), form = root.querySelector("form.deal");
    if (!nav || !form || !window.URLSearchParams || !window.FormData) return;
    var carry = function (href) {
      var q = new URLSearchParams(href.replace(/^[^?]*\?/, ""));
      new FormData(form).forEach(function (val, k) {
        // Not the form's key or deal number: an address that carried them
        // would show them again, used, after this deal is saved.
        if (k !== "contract" && FORM_OWN.indexOf(k) < 0 && val !== "" && !q.has(k)) q.append(k, val);
      });
      return "?" + q.toString();
    };
    nav.addEventListener("click", function (e) {
      var a = e.target.closest ? e.target.closest("a.pick") : null;
      if (!a) return;
      e.preventDefault();
      location.assign(carry(a.getAttribute("href")));
    });
    // Tout changes what the contract asks: the form is shown again for it.
    var tout = form.querySelector("input[name=tout]");
    if (tout) tout.addEventListener("change", function () {
      var deals = dealsOf(nav), contract = form.querySelector("input[name=contract]").value;
      focusAfterReload("input[name=tout]");
      var online = function () {
        var q = carry("?contract=" + encodeURIComponent(contract));
        if (!tout.checked) q = q.replace(/(^\?|&)tout=true/, "$1");
        location.assign(q);
      };
      if (!deals || !keptForm(nav, deals[0], contract, tout.checked)) { online(); return; }
      goOn(function () { return showDeal(deals, contract, tout.checked, form); }, online);
    });
  }

  // Ramsch: the one count left blank is what the others leave of the pack
  // (the server fills it in the same way), and who has the most points.
  function ramschHelper(root) {
    var fs = root.querySelector("fieldset.ramsch");
    if (!fs) return;
    var rows = fs.querySelectorAll(".ramsch-row"), most = fs.querySelector("output.most");
    var fill = function (kind, total) {
      var blank = [], sum = 0, values = [];
      Array.prototype.forEach.call(rows, function (row, i) {
        var none = row.querySelector("input[type=checkbox]").checked;
        var input = row.querySelector("input[name^=ramsch_" + kind + "]");
        input.placeholder = "";
        var n = parseInt(input.value, 10);
        if (none) { values[i] = 0; return; }
        if (input.value.trim() === "" || isNaN(n)) { blank.push(input); values[i] = null; return; }
        sum += n; values[i] = n;
      });
      if (blank.length === 1 && sum <= total) {
        blank[0].placeholder = String(total - sum);
        values[values.indexOf(null)] = total - sum;
      }
      return values;
    };
    var update = function () {
      var pts = fill("points", +fs.getAttribute("data-total"));
      fill("tricks", +fs.getAttribute("data-tricks"));
      if (!most) return;
      if (pts.indexOf(null) >= 0) { most.textContent = ""; return; }
      var top = Math.max.apply(null, pts), names = [];
      pts.forEach(function (p, i) { if (p === top) names.push(rows[i].querySelector(".who").textContent); });
      most.textContent = most.getAttribute("data-most").replace("{names}", names.join(", "));
    };
    fs.addEventListener("input", update);
    fs.addEventListener("change", update);
    // The keyboard's Next (Enter): on to the next player's points, past
    // the tricks and a Jungfer's hidden row, not sending the form.
    var moved = false;
    fs.addEventListener("keydown", function (e) {
      moved = false;
      if (e.key !== "Enter" || !/^ramsch_points_/.test(e.target.name || "")) return;
      var shown = Array.prototype.filter.call(fs.querySelectorAll("input[name^=ramsch_points_]"), function (i) { return i.offsetParent !== null; });
      var next = shown[shown.indexOf(e.target) + 1];
      if (!next) return;
      e.preventDefault();
      next.focus();
      moved = true;
    });
    // A keyboard that sends the Enter's character apart (a keypress after
    // the keydown) would send the form from the field moved to.
    fs.addEventListener("keypress", function (e) {
      if (e.key === "Enter" && moved) e.preventDefault();
      moved = false;
    });
    update();
  }

  // Share a link: the phone's share sheet where it has one (Web Share),
  // else the link is copied.
  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    return new Promise(function (ok, fail) {
      var t = document.createElement("textarea");
      t.value = text; t.setAttribute("readonly", ""); t.className = "offscreen";
      document.body.appendChild(t); t.select();
      var done = false;
      try { done = document.execCommand("copy"); } catch (e) {}
      t.remove();
      if (done) ok(); else fail();
    });
  }
  function shareButtons(root) {
    Array.prototype.forEach.call(root.querySelectorAll("button[data-share]"), function (b) {
      var url = b.getAttribute("data-share");
      b.textContent = b.getAttribute(navigator.share ? "data-share-label" : "data-copy-label");
      b.hidden = false;
      b.addEventListener("click", function () {
        if (navigator.share) { navigator.share({ title: document.title, url: url }).catch(function () {}); return; }
        // A copy refused (an old browser, a locked-down one) says so: the
        // link stands beside the button, to be held and copied by hand.
        copyText(url).then(function () { b.textContent = b.getAttribute("data-copied"); },
          function () { b.textContent = b.getAttribute("data-copy-failed"); });
      });
    });
  }

  // The report's Print button, and its share image given to the phone's
  // share sheet where that takes files (Web Share level 2); elsewhere the
  // download link beside it, which works without the script, stays the way.
  function reportButtons(root) {
    Array.prototype.forEach.call(root.querySelectorAll("button[data-print]"), function (b) {
      b.hidden = false;
      b.addEventListener("click", function () { window.print(); });
    });
    Array.prototype.forEach.call(root.querySelectorAll("button[data-share-file]"), function (b) {
      if (!navigator.canShare || typeof File !== "function") return;
      var name = b.getAttribute("data-share-name");
      var probe = new File([""], name, { type: "image/png" });
      if (!navigator.canShare({ files: [probe] })) return;
      b.hidden = false;
      b.addEventListener("click", function () {
        fetch(b.getAttribute("data-share-file"), { credentials: "same-origin" }).then(function (r) {
          if (!r.ok) throw new Error(r.status);
          return r.blob();
        }).then(function (blob) {
          return navigator.share({ files: [new File([blob], name, { type: "image/png" })], title: b.getAttribute("data-share-title") });
        }).catch(function (e) {
          if (e && e.name === "AbortError") return; // the share sheet closed: nothing asked
          var a = document.getElementById("report-image");
          if (a) a.click(); // refused (the tap's moment passed while loading): the download is the way left
        });
      });
    });
  }

  // Deals waiting to be sent. A form marked data-queue is sent by fetch;
  // when the server cannot be reached the post is kept in localStorage (with
  // the idempotency key the server put in the form when it was first shown)
  // and sent again until the server answers: the key makes a repeat of a
  // post that did arrive a replay, never a second deal.
  var QUEUE = "tappbook.waiting";
  // failure: why the oldest post still waits: "" while no try of it has
  // failed yet (it is on its way), "net" or "server".
  var sending = false, timer = null, delay = 1000, sent = false, failure = "";
  // A post is on its way for a few seconds; one older than that waits
  // even with no try failed yet (a server gone from the network may leave
  // a request unanswered for minutes).
  var ON_ITS_WAY = 5000;
  // A double tap's second tap comes within DOUBLE_TAP ms of the first (a
  // desktop's double click; a phone's is quicker). The answer to a form
  // sent from this page is shown no sooner, so that the second tap lands
  // on the form it sent, which takes no second send (answering), and not
  // on what the answer puts where Save was: the table's "Record deal n+1"
  // or its Undo. tappedAt: when this page last sent a form.
  var DOUBLE_TAP = 500, tappedAt = 0, answering = false;
  function afterTap(then) {
    var wait = tappedAt + DOUBLE_TAP - Date.now();
    if (wait > 0) setTimeout(then, wait); else then();
  }
  // leave goes to the answer of a form this page sent, once a second tap
  // can no longer land on it.
  function leave(url) {
    sent = true;
    answering = true;
    afterTap(function () { location.assign(url); });
  }

  // The back button brings a page back from the browser's memory as it
  // was left: a form already sent would offer its deal (and key) again.
  // It is asked for anew, without the values its address carried (those of
  // the deal just saved): the empty form for the next deal.
  window.addEventListener("pageshow", function (e) {
    if (!e.persisted || !sent) return;
    var contract = window.URLSearchParams && new URLSearchParams(location.search).get("contract");
    location.replace(location.pathname + (contract ? "?contract=" + encodeURIComponent(contract) : ""));
  });

  // waiting gives the posts waiting, or those of json (the queue as a
  // storage event tells of it).
  function waiting(json) {
    try { return JSON.parse(json === undefined ? localStorage.getItem(QUEUE) : json) || []; } catch (e) { return []; }
  }
  function keep(list) {
    try { localStorage.setItem(QUEUE, JSON.stringify(list)); } catch (e) {}
    banner();
  }
  function drop(key) {
    keep(waiting().filter(function (x) { return x.key !== key; }));
  }
  // evening gives the evening an address is of (its "/g/{id}", without
  // ROOT), "" for a page of none. The queue is the phone's, shared by its
  // tabs; what a page says of it is its own evening's part.
  function evening(url) {
    var p = new URL(url, location.href).pathname;
    if (ROOT && p.indexOf(ROOT + "/") === 0) p = p.slice(ROOT.length);
    var m = /^\/g\/[^\/]+/.exec(p);
    return m ? m[0] : "";
  }
  function banner() {
    var el = document.getElementById("queue");
    if (!el) return;
    // The deals of this page's evening: another tab's evening waits too,
    // but a count with its deals in would have this one's entered again.
    // A page of no evening (the start page) counts them all.
    var here = evening(location.href);
    // A post on its way is no post that waits: the banner would say the
    // server is out of reach while a slow network is still carrying it.
    var list = waiting().filter(function (x) { return !here || evening(x.url) === here; }), n = list.length;
    var late = n > 0 && Date.now() - list[0].at > ON_ITS_WAY;
    el.hidden = n === 0 || (failure === "" && !late);
    offerNext(!el.hidden && failure !== "full");
    if (el.hidden) return;
    el.querySelector("strong").textContent = n === 1 ? el.getAttribute("data-one") : el.getAttribute("data-many").replace("{n}", n);
    // Why it waits: no answer at all, or the server answered that it could
    // not save (its database out of reach, say).
    var why = el.querySelector(".why");
    if (why) why.textContent = why.getAttribute(failure === "server" ? "data-server" : failure === "full" ? "data-full" : "data-net");
    // Going on with the next deals, the person knows why; the banner keeps
    // to its count, so as not to cover the form.
    if (why) why.hidden = ahead;
  }

  // show puts a page the server answered (a refusal next to its field, a
  // conflict with another phone) in place of this one, so that it is read.
  function show(html, url, draft) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var main = doc.getElementById("main"), here = document.getElementById("main");
    if (!main || !here) { document.documentElement.innerHTML = html; return; }
    ahead = false;
    putMain(here, main, doc.title, url);
    init(main, { draft: draft || "" });
    // The page was scrolled to the Save button: bring the first message
    // into view, or one more tap would send the form unread.
    var said = main.querySelector(".error");
    if (said) said.scrollIntoView({ block: "center" });
    sayRefusal(main);
  }

  // putMain puts main in place of the page's (here), with its title and
  // address.
  function putMain(here, main, title, url) {
    if (here.querySelector("#live") && !main.querySelector("#live")) stopLive(); // the table gives way
    here.replaceWith(main);
    document.title = title;
    try { history.replaceState(null, "", url); } catch (e) {}
    switchLinks();
  }
  // switchLinks points the language and theme links at the address shown
  // (the server wrote them for the page this one replaced): another
  // language shows this page, not the one before it.
  function switchLinks() {
    if (!window.URL || !window.URLSearchParams) return;
    Array.prototype.forEach.call(document.querySelectorAll("header nav.langs a[href], header a.theme[href]"), function (a) {
      var was = new URL(a.href), u = new URL(location.href), k = a.closest("nav.langs") ? "lang" : "theme";
      if (!was.searchParams.has(k)) return;
      u.searchParams.set(k, was.searchParams.get(k));
      u.searchParams.sort();
      a.setAttribute("href", u.pathname + u.search);
    });
  }

  // A refused form's first message takes the focus, so that a screen
  // reader reads it (an alert already in a page as it loads may not be
  // read) and the next Tab goes on from there. The message, not its field:
  // a phone would open its keyboard over it.
  function sayRefusal(root) {
    var said = root.querySelector(".error[role=alert]");
    if (!said) return;
    if (!said.hasAttribute("tabindex")) said.setAttribute("tabindex", "-1");
    said.focus({ preventScroll: true });
  }

  // A tap that shows the deal's form again for another shape (a contract,
  // tout) keeps the focus where it was: on the new page, on the same
  // control, not at the page's top. Kept in the tab's sessionStorage.
  var FOCUS = "tappbook.focus";
  function focusAfterReload(selector) {
    try { sessionStorage.setItem(FOCUS, selector); } catch (e) {}
  }
  // A contract tapped, on the bare form (a plain link) as on one with a
  // contract (keepTyped's).
  document.addEventListener("click", function (e) {
    if (e.target.closest && e.target.closest("nav.contracts a.pick")) focusAfterReload("nav.contracts a.pick.selected");
  }, true);
  function refocus() {
    var selector = null;
    try { selector = sessionStorage.getItem(FOCUS); sessionStorage.removeItem(FOCUS); } catch (e) {}
    var el = selector && document.querySelector(selector);
    // A new Ramsch's form: its first player's points take the digits
    // without a tap (not over a refusal, which has the focus).
    var first = document.querySelector("form.deal fieldset.ramsch input[name^=ramsch_points_]");
    if (first && first.value === "" && first.offsetParent !== null && first.form.querySelector("input[name=expected_hand]") &&
      !document.querySelector(".error[role=alert]") && (!el || el.closest("nav.contracts"))) el = first;
    if (el) el.focus();
  }

  // The answers that mean not saved (or not known), to be sent again.
  var OUTAGE = [429, 502, 503, 504, 507];

  // retryLater sends the queue again after a growing pause, or after the
  // server's Retry-After (in seconds, at most five minutes): a store that
  // waits for its operator asks for a minute, and every phone of the
  // evening asking every five seconds would only fill the log with
  // refusals. A tap on Save still sends at once.
  function retryLater(after) {
    if (timer) return;
    var wait = delay, asked = /^\d+$/.test(after || "") ? Math.min(parseInt(after, 10), 300) * 1000 : 0;
    if (asked > wait) wait = asked;
    timer = setTimeout(function () { timer = null; flush(); }, wait);
    delay = Math.min(delay * 2, 5000);
  }

  // flush sends the oldest waiting post; on an answer, the next.
  function flush() {
    var list = waiting();
    if (sending || list.length === 0) { banner(); return; }
    var item = list[0];
    sending = true;
    setTimeout(banner, ON_ITS_WAY + 100);
    fetch(item.url, {
      method: "POST", body: item.body, credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded" }
    }).then(function (r) {
      if (OUTAGE.indexOf(r.status) < 0) lastUp = Date.now();
      return r.text().then(function (html) {
        sending = false;
        // An outage (the database does not answer, a proxy without its
        // server, a full disk) or too many connections from this phone at
        // once (429): not saved, or unknown with the key, so again. A
        // fault (500) would fail again: its answer is shown.
        if (OUTAGE.indexOf(r.status) >= 0) { failure = r.status === 507 ? "full" : "server"; banner(); retryLater(r.headers.get("Retry-After")); return; }
        delay = 1000;
        failure = "";
        if (r.ok && r.redirected) {
          // Another tab may show the form sent, "Saving…": it is told
          // where the answer leads before the post leaves the queue
          // (takeAnswers), as it learns of it by the queue's change.
          if (!shows(item.key)) answer({ key: item.key, at: Date.now(), to: r.url });
          drop(item.key);
          if (item.draft) draftDrop(item.draft); // saved: the form is for the next deal now
          // The page still shows the form sent (or was loaded again since):
          // the table, as after any save. Not if the phone has gone on to
          // the next deal meanwhile.
          if ((item.page === location.href && (!ahead || shows(item.key))) || behind(r.url)) leave(r.url);
          // Sent from another page (the phone came back on the table): the
          // table says it was saved, as after a save there. Deals of other
          // evenings (another tab's) still waiting do not hold it up.
          else if (new URL(r.url).pathname === location.pathname &&
            !waiting().some(function (x) { return evening(x.url) === evening(r.url); })) location.assign(r.url);
          else flush();
          return;
        }
        refused(item, html);
        flush();
      });
    }, function () {
      sending = false;
      failure = "net";
      banner();
      retryLater();
    });
  }

  // refused shows, or hands on, the server's refusal (html) of a waiting
  // post. The deals recorded after it on this phone are not sent (each
  // was typed as its successor: sent now, each would be another deal's
  // number) but kept as drafts of their deals, each to be checked and
  // saved once this one is.
  function refused(item, html) {
    if (shows(item.key)) {
      drop(item.key);
      var kept = keepAsDrafts(item);
      // Not twice: another tab may have handed this answer on first.
      if (!taken[item.key]) {
        taken[item.key] = true;
        answering = true;
        afterTap(function () { answering = false; show(html, item.url, item.draft); sayKept(kept); });
      }
    } else {
      // Sent for another tab (or one since closed): the answer is
      // shown where its evening is, never over another evening's
      // page. It is handed on, with the drafts (a tab's own storage)
      // of the deals after it, to the tab that sent it and every tab
      // showing its evening, or to the evening's page when next
      // opened (takeAnswers); this tab takes it if it shows that
      // evening. Handed on before the post leaves the queue: the tab
      // that sent it learns of it by the queue's change.
      var a = { key: item.key, at: Date.now(), evening: evening(item.url), url: item.url, html: html, draft: item.draft, drafts: {}, keys: [] };
      a.kept = keepAsDrafts(item, a);
      var gone = a.keys.concat(item.key);
      delete a.keys;
      answer(a);
      keep(waiting().filter(function (x) { return gone.indexOf(x.key) < 0; }));
      takeAnswers([a]);
    }
  }

  // The next deals while the server is out of reach. Over plain HTTP there
  // is no service worker: a link followed with the Wi-Fi gone is the
  // browser's error page. A new deal's page, and the table's Record
  // button, name the deal (number, dealer's seat, key, words: data-deals)
  // and where the forms of every contract for every dealer's seat are
  // (data-forms); the phone fetches those once and keeps them in the tab,
  // and numbers the deals after it itself (onward). While a deal waits to
  // be sent, the page offers the next deal's form from them, and a form
  // asked for with the server out of reach is shown from them too. The
  // deals wait in the queue and are sent in order; the server checks each.
  var FORMS = "tappbook.forms:", FORMS_FRESH = 30 * 60000;
  // ahead: this page is a form the phone made itself, the server not seen.
  var ahead = false;
  function formsKey(nav) { return FORMS + nav.getAttribute("data-forms") + ":" + document.documentElement.lang; }
  function keptForms(nav) {
    if (!nav || !nav.hasAttribute("data-forms")) return null;
    try { var c = JSON.parse(sessionStorage.getItem(formsKey(nav))); return c && c.forms ? c : null; } catch (e) { return null; }
  }
  // dealsHolder is what names the page's deals and kept forms: a new
  // deal's contracts, or the table's Record button.
  function dealsHolder() { return document.querySelector("#main nav.contracts[data-deals], #main a[data-forms][data-deals]"); }
  // dealsOf reads the deals an element names: the page's one, or this
  // and the next ones made on the phone.
  function dealsOf(nav) {
    try {
      var d = JSON.parse(nav.getAttribute("data-deals"));
      if (d && !Array.isArray(d)) d = [d];
      return d && d.length ? d : null;
    } catch (e) { return null; }
  }
  function fetchForms(root) {
    var nav = root.querySelector("nav.contracts[data-forms], a[data-forms]");
    // Storage may be switched off, and then even asking for it throws.
    try { if (!nav || !window.fetch || !window.sessionStorage || ahead) return; } catch (e) { return; }
    var kept = keptForms(nav);
    if (kept && Date.now() - kept.at < FORMS_FRESH) return;
    var key = formsKey(nav);
    // After the page has settled: what the person came for first.
    setTimeout(function () {
      fetch(nav.getAttribute("data-forms"), { credentials: "same-origin" })
        .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
        .then(function (c) { c.at = Date.now(); dropForms(key); try { sessionStorage.setItem(key, JSON.stringify(c)); } catch (e) {} })
        .catch(function () {});
    }, 300);
  }
  // dropForms drops the forms kept for other games and languages (but
  // keep): a tab's storage is small, and drafts need it more.
  function dropForms(keep) {
    try {
      var gone = [];
      for (var i = 0; i < sessionStorage.length; i++) {
        var k = sessionStorage.key(i);
        if (k.indexOf(FORMS) === 0 && k !== keep) gone.push(k);
      }
      gone.forEach(function (k) { sessionStorage.removeItem(k); });
    } catch (e) {}
  }
  // away: the server is known to be out of reach (or this page was made
  // without it): a form asked for is shown from the kept forms.
  function away() { return ahead || failure === "net" || navigator.onLine === false; }
  // showDeal shows deals[0]'s form for contract, from the kept forms, with
  // what was chosen on the form from (another contract's) carried over.
  function showDeal(deals, contract, tout, from) {
    var here = document.getElementById("main"), nav = dealsHolder();
    var kept = keptForms(nav);
    if (!kept || !here) return false;
    // A deal that already waits to be sent (its page left by the back
    // button, the table shown again) is not recorded a second time: the
    // form is for the deal after the last one waiting.
    var path = nav.getAttribute("data-forms").replace(/\/forms$/, ""), last = 0;
    waiting().forEach(function (x) { if (dealFor(x, path)) last = Math.max(last, x.hand); });
    while (deals[0].hand <= last) {
      var more = onward(deals, kept.seats);
      if (more.length < 2) return false;
      deals = more.slice(1);
    }
    var deal = deals[0], html = kept.forms[deal.seat + "|" + contract + (tout ? "|tout" : "")];
    if (!html) return false;
    // A deal named without a key (on the table, a page every phone is
    // shown alike) gets the phone's own, kept with it from here on.
    if (!deal.key) deal.key = randomKey();
    if (!deal.key) return false;
    var main = document.createElement("main");
    main.id = "main";
    main.innerHTML = html;
    var h1 = main.querySelector("h1");
    if (h1) h1.textContent = deal.title;
    var to = main.querySelector("nav.contracts");
    if (to) {
      to.setAttribute("data-draft", deal.draft);
      to.setAttribute("data-deals", JSON.stringify(deals));
      to.setAttribute("data-forms", nav.getAttribute("data-forms"));
      to.setAttribute("data-next", nav.getAttribute("data-next"));
    }
    var form = main.querySelector("form.deal");
    if (form) {
      var set = function (name, v) { var el = form.querySelector("input[name=" + name + "]"); if (el) el.value = v; };
      set("expected_hand", deal.hand);
      set("idempotency_key", deal.key);
      var b = form.querySelector("button[type=submit]");
      if (b) b.textContent = deal.submit;
      if (from) carryOver(from, form, deal.hand);
    }
    ahead = true;
    sent = false;
    var q = contract ? "?contract=" + encodeURIComponent(contract) + (tout ? "&tout=true" : "") : "";
    putMain(here, main, deal.title + " · tappbook", path + q);
    init(main);
    window.scrollTo(0, 0);
    refocus();
    return true;
  }
  // carryOver puts what was chosen on one deal form onto another, where
  // the other asks the same. What a form does not ask (the points, with
  // tout) is kept for the deal's next form that does, as the server keeps
  // it in the address online.
  var carried = { hand: 0, values: {} };
  function carryOver(from, to, hand) {
    if (carried.hand !== hand) carried = { hand: hand, values: {} };
    var values = carried.values;
    Array.prototype.forEach.call(from.elements, function (el) {
      if (!el.name || el.type === "hidden" || el.type === "submit" || el.type === "button" || el.name === "tout") return;
      if (el.type === "radio") { if (el.checked) values[el.name] = el.value; else if (!(el.name in values)) values[el.name] = null; }
      else if (el.type === "checkbox") values[el.name] = el.checked ? el.value : null;
      else values[el.name] = el.value;
    });
    var chosen = {};
    Object.keys(values).forEach(function (k) { if (values[k] !== null) chosen[k] = values[k]; });
    putValues(to, chosen);
  }
  // onward gives deals with the one after it, where only one is left (a
  // page names its own deal). Its key is the phone's own (random, as the
  // server's; plain HTTP has crypto.getRandomValues).
  function onward(deals, seats) {
    if (deals.length > 1 || !seats || !deals[0].title_of || !randomKey()) return deals;
    // As the server names them (web's nextDeal and draftKey): the dealer
    // moves on a seat a deal.
    var last = deals[0], next = last.hand + 1;
    return deals.concat([{ hand: next, seat: (last.seat + 1) % seats, key: randomKey(),
      draft: last.draft.replace(/\/new\/\d+$/, "/new/" + next),
      title: last.title_of.replace("{n}", next), submit: last.submit_of.replace("{n}", next),
      title_of: last.title_of, submit_of: last.submit_of }]);
  }
  // randomKey is an idempotency key made on the phone: 128 random bits,
  // as the server's (plain HTTP has crypto.getRandomValues); "" without.
  function randomKey() {
    if (!window.crypto || !crypto.getRandomValues) return "";
    var bytes = new Uint8Array(16), key = "";
    crypto.getRandomValues(bytes);
    for (var i = 0; i < bytes.length; i++) key += (bytes[i] < 16 ? "0" : "") + bytes[i].toString(16);
    return key;
  }
  // offerNext offers, while the deal on this page waits to be sent, the
  // next deal's form.
  function offerNext(waits) {
    var old = document.getElementById("next-deal"), form = document.querySelector("form.deal"),
        nav = dealsHolder(), key = form && form.querySelector("input[name=idempotency_key]");
    var kept = keptForms(nav), deals = nav && dealsOf(nav);
    if (deals && kept) deals = onward(deals, kept.seats);
    var ok = waits && key && deals && deals.length > 1 && kept && kept.forms[deals[1].seat + "|"] !== undefined &&
      waiting().some(function (x) { return x.key === key.value; });
    if (!ok) { if (old) old.remove(); return; }
    if (old) return;
    var b = document.createElement("button");
    b.type = "button"; b.id = "next-deal"; b.className = "big";
    b.textContent = nav.getAttribute("data-next").replace("{n}", deals[1].hand);
    b.addEventListener("click", function () { showDeal(deals.slice(1), "", false, null); });
    form.appendChild(b);
  }
  // A contract tapped with the server out of reach: from the kept forms.
  // Where the server is not known to be away (a laptop gone to sleep, the
  // phone's Wi-Fi still up), it is asked first, briefly: a link followed to
  // a server that is gone would be the browser's error page.
  var passing = null; // a link the server answered for: its click goes on as without this
  document.addEventListener("click", function (e) {
    // A contract, or the table's Record button (its deal's bare form).
    var a = e.target.closest && e.target.closest("nav.contracts a.pick, a[data-forms][data-deals]");
    if (!a) return;
    if (passing === a) { passing = null; return; }
    if (!window.URLSearchParams || !window.fetch) return;
    var nav = a.hasAttribute("data-forms") ? a : a.closest("nav.contracts"), deals = nav && dealsOf(nav);
    var contract = a === nav ? "" : new URLSearchParams(a.getAttribute("href").replace(/^[^?]*\?/, "")).get("contract") || "";
    if (!deals || !keptForm(nav, deals[0], contract, false)) return;
    e.preventDefault();
    e.stopPropagation();
    goOn(function () { return showDeal(deals, contract, false, document.querySelector("form.deal")); },
      function () { passing = a; a.click(); });
  }, true);
  // keptForm says whether the phone keeps deal's form for contract.
  function keptForm(nav, deal, contract, tout) {
    var forms = keptForms(nav);
    return !!forms && forms.forms[deal.seat + "|" + contract + (tout ? "|tout" : "")] !== undefined;
  }
  // goOn goes on to another form: from the kept forms (offline, which
  // says whether it could) where the server is away, else as online. Not
  // known to be away (a laptop gone to sleep, the phone's Wi-Fi still up),
  // the server is asked first, briefly: a link followed to a server that
  // is gone would be the browser's error page.
  function goOn(offline, online) {
    if (away()) { if (!offline()) online(); return; }
    if (Date.now() - lastUp < FRESH) { online(); return; } // it answered a moment ago: no question, no wait
    reachable(function (up) {
      if (!up) { if (failure === "") failure = "net"; if (offline()) return; }
      online();
    });
  }
  // reachable says whether the server answers within PROBE ms, and can
  // save: its health (which the service worker never answers from its
  // cache). lastUp: when the server last answered (this page, a send, a
  // question, the live stream); within FRESH of it a tap is not held up by
  // asking again (each question costs a round trip, long on a weak Wi-Fi).
  var PROBE = 2500, FRESH = 3000, lastUp = Date.now();
  function reachable(then) {
    var done = false, finish = function (up) { if (!done) { done = true; if (up) lastUp = Date.now(); then(up); } };
    setTimeout(function () { finish(false); }, PROBE);
    fetch(ROOT + "/healthz", { cache: "no-store" }).then(function (r) { finish(r.ok); }, function () { finish(false); });
  }
  // dealFor says whether a waiting post is a new deal for the record form
  // at path (a game's).
  function dealFor(x, path) { return !!x.hand && new URL(x.url, location.href).pathname === path; }
  // keepAsDrafts takes the deals recorded after item on the same game's
  // form out of the queue and keeps each as the draft of its deal's form;
  // it gives their numbers. With into (an answer handed to another tab),
  // the drafts go into it (into.drafts, by name) and their keys into
  // into.keys, the queue left to the caller: drafts are a tab's own, kept
  // by the tab that shows the answer.
  function keepAsDrafts(item, into) {
    if (!item.hand || !window.URLSearchParams) return [];
    var path = new URL(item.url, location.href).pathname, kept = [];
    var list = waiting().filter(function (x) {
      if (!dealFor(x, path) || !x.draft || x.hand <= item.hand) return true;
      var q = new URLSearchParams(x.body), fields = {};
      q.forEach(function (v, k) {
        if (k !== "contract" && k !== "tout" && FORM_OWN.indexOf(k) < 0) fields[k] = v;
      });
      var draft = JSON.stringify({ contract: q.get("contract") || "", tout: q.get("tout") === "true", fields: fields, kept: x.hand });
      if (into) { into.drafts[x.draft] = draft; into.keys.push(x.key); kept.push(x.hand); return false; }
      // No room: the kept forms make way, all of them if need be (the
      // pages fetch them again); sent as it is, the deal would go under
      // another deal's number.
      try { sessionStorage.setItem(DRAFT + x.draft, draft); } catch (e) {
        dropForms("");
        try { sessionStorage.setItem(DRAFT + x.draft, draft); } catch (e2) { return true; }
      }
      kept.push(x.hand);
      return false;
    });
    if (kept.length && !into) keep(list);
    return kept.sort(function (a, b) { return a - b; });
  }
  // putDrafts keeps drafts handed on with an answer in this tab.
  function putDrafts(drafts) {
    Object.keys(drafts || {}).forEach(function (name) {
      try { sessionStorage.setItem(DRAFT + name, drafts[name]); } catch (e) {
        dropForms("");
        try { sessionStorage.setItem(DRAFT + name, drafts[name]); } catch (e2) {}
      }
    });
  }

  // Answers handed on between the phone's tabs (any tab sends the oldest
  // waiting post, whichever tab it was entered in): a refusal, {key,
  // evening, url, html, draft, kept, drafts}, waits in localStorage until
  // a tab showing its evening takes it, now or when that evening's page is
  // next opened; a save, {key, to}, is for a tab still "Saving…" that form
  // (a tab since closed needs it no more: it is dropped after a minute).
  var ANSWERS = "tappbook.answers", SAVE_KEPT = 60000;
  // taken: the answers this tab has shown, by key; one sent again by
  // another tab at once is not shown twice.
  var taken = {};
  function answers(json) {
    try { return JSON.parse(json === undefined ? localStorage.getItem(ANSWERS) : json) || []; } catch (e) { return []; }
  }
  function keepAnswers(list) {
    try {
      if (list.length) localStorage.setItem(ANSWERS, JSON.stringify(list));
      else localStorage.removeItem(ANSWERS);
    } catch (e) {}
  }
  function answer(a) {
    keepAnswers(answers().filter(function (x) {
      return x.key !== a.key && !taken[x.key] && (!x.to || Date.now() - x.at < SAVE_KEPT);
    }).concat([a]));
  }
  // busyKeys gives the keys of the forms this page shows "Saving…".
  function busyKeys() {
    return Array.prototype.map.call(document.querySelectorAll("#main form[data-queue]"), function (f) {
      var b = f.querySelector("button[aria-busy=true]"), k = f.querySelector("input[name=idempotency_key]");
      return b && k ? k.value : "";
    }).filter(Boolean);
  }
  // takeAnswers takes, of list, the answer for this tab: a save of the
  // form it shows "Saving…" (the table, as after a save here), or a
  // refusal of the form it sent or of a post of the evening it shows
  // (shown as a refusal to its own post is). It says whether it took one.
  function takeAnswers(list) {
    var here = evening(location.href), busy = busyKeys();
    var a = list.filter(function (x) {
      return !taken[x.key] && (busy.indexOf(x.key) >= 0 || (x.html !== undefined && here !== "" && x.evening === here));
    })[0];
    // What this tab has shown goes from the list, as what it takes now.
    var gone = list.some(function (x) { return taken[x.key]; });
    if (a) taken[a.key] = true;
    if (a || gone) keepAnswers(answers().filter(function (x) { return !taken[x.key]; }));
    if (!a) return false;
    if (a.to) { leave(a.to); return true; }
    putDrafts(a.drafts);
    show(a.html, a.url, a.draft);
    sayKept(a.kept || []);
    return true;
  }
  // Another tab's doing: the queue changed (the count; a post this page
  // shows "Saving…" gone), or an answer was handed on.
  window.addEventListener("storage", function (e) {
    if (e.key === ANSWERS) { takeAnswers(answers(e.newValue)); return; }
    if (e.key !== QUEUE) return;
    banner();
    var before = waiting(e.oldValue), now = waiting(e.newValue);
    var left = busyKeys().filter(function (k) {
      return !taken[k] && before.some(function (x) { return x.key === k; }) && !now.some(function (x) { return x.key === k; });
    });
    // Its answer was handed on first; if none is (another tab took it as
    // a draft, or an older script sent it), the evening's table says what
    // became of it: the form stays "Saving…" no longer.
    if (left.length && !takeAnswers(answers()) && evening(location.href)) location.assign(ROOT + evening(location.href));
  });

  // sayKept says, above the refused form's button, which deals were kept
  // as drafts: read before this one is saved again.
  function sayKept(hands) {
    var button = document.querySelector("#main form.deal button[type=submit]"), words = document.body.getAttribute(hands.length === 1 ? "data-kept-one" : "data-kept-many");
    // A closed evening takes no deal: its form promises none.
    if (!hands.length || !button || !words || document.querySelector("#main nav.contracts[data-closed]")) return;
    var p = document.createElement("p");
    p.className = "status kept";
    p.textContent = words.replace("{n}", hands.length === 1 ? hands[0] : hands[0] + "–" + hands[hands.length - 1]);
    button.insertAdjacentElement("beforebegin", p);
  }
  // behind says whether the page is a new deal's form for the deal saved
  // (as saved, by its answer's address) or one before it: opened while
  // the deal waited, it would record it twice.
  function behind(saved) {
    var nav = dealsHolder(), deals = nav && !ahead && dealsOf(nav);
    var n = parseInt(new URL(saved, location.href).searchParams.get("saved"), 10);
    return !!deals && n >= deals[0].hand && new URL(saved, location.href).pathname + "/record" === location.pathname;
  }
  // shows says whether a form on the page carries key.
  function shows(key) {
    return Array.prototype.some.call(document.querySelectorAll("input[name=idempotency_key]"), function (k) { return k.value === key; });
  }

  function queueForms(root) {
    Array.prototype.forEach.call(root.querySelectorAll("form[data-queue]"), function (form) {
      form.addEventListener("submit", function (e) {
        if (!window.fetch || !window.localStorage || !window.URLSearchParams) return; // a plain post
        e.preventDefault();
        // Its answer is in and about to be shown: a second tap sends
        // nothing more.
        if (answering) return;
        var key = form.querySelector("input[name=idempotency_key]");
        var hand = form.querySelector("input[name=expected_hand]");
        var item = {
          url: form.action, page: location.href, at: Date.now(),
          body: new URLSearchParams(new FormData(form)).toString(),
          key: key ? key.value : String(Date.now()),
          draft: form.classList.contains("deal") && !form.hasAttribute("data-draftless") ? draftName(root) : "",
          hand: hand ? +hand.value : 0
        };
        // Said on the button at once: on a slow network the answer may
        // take seconds, and a form that looks untouched gets tapped again.
        var button = form.querySelector("button[type=submit]"), busy = document.body.getAttribute("data-sending");
        if (button && busy) { button.textContent = busy; button.setAttribute("aria-busy", "true"); }
        delay = 1000;
        // The same post already waits or is on its way (a second tap): it
        // is not sent again, only tried at once if it waits.
        if (waiting().some(function (x) { return x.key === item.key && x.body === item.body; })) { flush(); return; }
        // Sent again (a refused form keeps its key): its answer is a new
        // one, to be shown.
        delete taken[item.key];
        tappedAt = Date.now();
        var list = waiting().filter(function (x) { return x.key !== item.key; });
        list.push(item);
        keep(list);
        flush();
      });
    });
  }

  // Times: the server writes them in its own time zone and gives the
  // instant; the phone shows them in its own, as its clock does (a server
  // left on UTC would put every time of the evening an hour or more off).
  function localTimes(root) {
    var pad = function (n) { return (n < 10 ? "0" : "") + n; };
    // A chart's day is an SVG text, which has no datetime of its own.
    Array.prototype.forEach.call(root.querySelectorAll("time[datetime][data-show], text[data-datetime][data-show]"), function (el) {
      var d = new Date(el.getAttribute("datetime") || el.getAttribute("data-datetime"));
      if (isNaN(d.getTime())) return;
      var day = d.getFullYear() + "-" + pad(d.getMonth() + 1) + "-" + pad(d.getDate()),
          clock = pad(d.getHours()) + ":" + pad(d.getMinutes()),
          show = el.getAttribute("data-show");
      el.textContent = show === "date" ? day : show === "clock" ? clock :
        show === "minute" ? day + " " + clock : day + " " + clock + ":" + pad(d.getSeconds());
    });
  }

  // init makes a page's parts work; answered: the page is the server's
  // answer to a post, put in place of the one shown ({draft: the sent
  // form's draft name}).
  function init(root, answered) {
    localTimes(root);
    // The draft first: what shows or hides parts of the form, or counts
    // from it, then starts from what it puts back; so does what a page
    // showed before another language was chosen.
    if (drafts(root, answered) === false) return;
    var carried = root === document ? carryBack() : [];
    pointsHelper(root);
    steppers(root);
    queueForms(root);
    fetchForms(root);
    keepTyped(root);
    ramschHelper(root);
    cutPreview(root);
    shareButtons(root);
    reportButtons(root);
    // The close's cut asks the server what it gives once a choice is
    // made: it asks for the choices put back. (A deal's form is not told:
    // its draft would take values it may only show, see formState.)
    carried.forEach(function (f) { if (f.hasAttribute("data-cut")) f.dispatchEvent(new Event("change", { bubbles: true })); });
  }

  // Another language (or theme) is the same page loaded again: each of its
  // forms shows what it showed, typed, tapped, or sent back by the server
  // with a refusal, not the empty form of a fresh page. A deal's form has
  // its draft besides; the others had nothing (a void's reason, a refused
  // deal's values shown for checking, the start form's names). Kept in the
  // tab's sessionStorage for the next page, and put back only onto the
  // same page's forms for the same things: the hidden fields that say
  // what a form is for (a deal's number, its version, the evening's) must
  // be alike; its key and token are the new page's own.
  var CARRY = "tappbook.carry", CARRY_FRESH = 60000, CARRY_NOT = ["form_token", "idempotency_key"];
  // pageOf is the page an address shows, whatever its language or theme.
  function pageOf(href) {
    var u = new URL(href, location.href);
    u.searchParams.delete("lang");
    u.searchParams.delete("theme");
    u.searchParams.sort();
    return u.pathname + u.search;
  }
  // formState is what a form shows, field by field, what it is for (its
  // hidden fields), and its shape (its fields' names and choices; not the
  // buttons the script adds, such as kontra's − and +, which the page
  // loaded again has not yet). A refused deal shown on the form of a deal
  // kept on this phone (drafts: data-draftless) is not carried: the page
  // comes back with the kept deal, which it would hide.
  function formState(form) {
    var own = {}, shape = [], values = [], fields = [];
    if (form.hasAttribute("data-draftless")) return { own: "", shape: "", values: values, fields: fields };
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.type === "submit" || el.type === "button" || el.type === "file") return;
      if (el.type === "hidden") { if (CARRY_NOT.indexOf(el.name) < 0) own[el.name] = el.value; return; }
      var box = el.type === "radio" || el.type === "checkbox";
      shape.push(el.name + " " + el.type + (box ? " " + el.value : ""));
      values.push(box ? el.checked : el.value);
      fields.push(el);
    });
    return { own: JSON.stringify(own), shape: shape.join("\n"), values: values, fields: fields };
  }
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest("header nav.langs a[href], header a.theme[href]");
    if (!a || !window.URL || !window.URLSearchParams) return;
    var forms = Array.prototype.map.call(document.querySelectorAll("#main form"), function (f) {
      var st = formState(f);
      return { own: st.own, shape: st.shape, values: st.values };
    });
    try { sessionStorage.setItem(CARRY, JSON.stringify({ to: pageOf(a.href), at: Date.now(), forms: forms })); } catch (err) {}
  }, true);
  // carryBack puts back what the page's forms showed before the switch,
  // and gives the forms it filled.
  function carryBack() {
    var c = null;
    try {
      c = JSON.parse(sessionStorage.getItem(CARRY));
      sessionStorage.removeItem(CARRY);
    } catch (e) { return []; }
    var forms = document.querySelectorAll("#main form"), put = [];
    if (!c || !c.forms || c.to !== pageOf(location.href) || Date.now() - c.at > CARRY_FRESH || forms.length !== c.forms.length) return [];
    c.forms.forEach(function (was, n) {
      var form = forms[n], now = formState(form);
      if (!was.values.length || now.own !== was.own || now.shape !== was.shape) return;
      now.fields.forEach(function (el, i) {
        if (el.type === "radio" || el.type === "checkbox") el.checked = was.values[i];
        else el.value = was.values[i];
      });
      put.push(form);
    });
    return put;
  }
  // A field left empty: the browser's own "Please fill out this field"
  // speaks the phone's language, not the one chosen on the page; the page
  // gives its words instead. Each try to send starts afresh, so that a
  // message never outlives what it was about.
  document.addEventListener("invalid", function (e) {
    var el = e.target;
    if (!el.setCustomValidity || !el.validity.valueMissing) return;
    var choose = el.type === "radio" || el.tagName === "SELECT";
    el.setCustomValidity(document.body.getAttribute(choose ? "data-choose" : "data-fill") || "");
  }, true);
  var unsay = function (form) {
    if (!form) return;
    Array.prototype.forEach.call(form.elements, function (el) { if (el.setCustomValidity) el.setCustomValidity(""); });
  };
  document.addEventListener("click", function (e) {
    var b = e.target.closest && e.target.closest("button, input[type=submit]");
    if (b && b.form) unsay(b.form);
  }, true);
  document.addEventListener("change", function (e) { unsay(e.target.form); }, true);
  document.addEventListener("input", function (e) { unsay(e.target.form); }, true);

  // A refusal beside a field (the server's, on the form it sent back) goes
  // as soon as that field is changed, and so does the field's invalid
  // marking: it was about what the field held before. The other fields'
  // messages stay until the form is sent again. A field names its message
  // by aria-describedby; a group of choices, by its fieldset. Without the
  // script, the messages stay until the next send, as before.
  function unmark(el) {
    var kept = [];
    (el.getAttribute("aria-describedby") || "").split(/\s+/).forEach(function (id) {
      var said = id && document.getElementById(id);
      if (said && said.classList.contains("error")) said.remove();
      else if (id) kept.push(id);
    });
    if (kept.length) el.setAttribute("aria-describedby", kept.join(" "));
    else el.removeAttribute("aria-describedby");
    el.removeAttribute("aria-invalid");
  }
  var forget = function (e) {
    var el = e.target, form = el.form;
    if (!form) return;
    var changed = [el];
    // The fieldsets around it: a group of choices, the whole Ramsch.
    for (var n = el.parentElement; n && n !== form; n = n.parentElement) if (n.tagName === "FIELDSET") changed.push(n);
    // "No trick" answers the row's counts (0 and 0); won or lost, whether
    // (and so how many) tricks a lost deal took.
    var row = /^ramsch_none_/.test(el.name) && el.closest(".ramsch-row");
    if (row) Array.prototype.push.apply(changed, row.querySelectorAll(".counts input"));
    if (el.name === "outcome") Array.prototype.push.apply(changed, form.querySelectorAll("fieldset.when-lost"));
    changed.forEach(function (f) {
      if (f.hasAttribute("aria-invalid") || f.hasAttribute("aria-describedby")) unmark(f);
    });
  };
  document.addEventListener("input", forget, true);
  document.addEventListener("change", forget, true);

  init(document);
  // A refused form sent without the queue (a new evening, a payment) comes
  // back as a whole page, at its top: its first message is brought into
  // view and said, as the queue's answers are.
  var main = document.getElementById("main"), said = main && main.querySelector(".error[role=alert]");
  if (said) { said.scrollIntoView({ block: "center" }); sayRefusal(main); }
  refocus();
  witness();
  // A refusal handed on for this evening while no tab showed it.
  try { if (window.localStorage) takeAnswers(answers()); } catch (e) {}
  banner();
  flush();
  window.addEventListener("online", flush);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") flush();
  });

  // Installable and readable offline over HTTPS: the service worker keeps
  // the pages last seen. (Over plain HTTP browsers allow no service worker.)
  if ("serviceWorker" in navigator && location.protocol === "https:") {
    navigator.serviceWorker.register(ROOT + "/sw.js").catch(function () {});
  }
})();
