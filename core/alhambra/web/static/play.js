// The play page: every action by pointing at the thing it acts on (a money card, a market
// building, a cell of the Alhambra, one of its tiles, a double wall, a hut stack, a bonus card,
// the vizier), sent as its index in the listed actions with the version it was listed in (a
// stale page gets a 409). The page never reloads: an action is posted with fetch, and the page
// follows the game by polling /version and fetching its own HTML again, whose <main> replaces
// the old one; what changed is highlighted. No library, no build step.
(function () {
  "use strict";
  var SVGNS = "http://www.w3.org/2000/svg";
  var MARKET = ["florin", "dirham", "dinar", "ducat"];
  var SIDES = { 1: "north", 2: "east", 4: "south", 8: "west" };
  var STEP = { 1: [0, -1], 2: [1, 0], 4: [0, 1], 8: [-1, 0] };
  var data = null, actions = [], busy = false, fetching = false, pinned = {}, targets = {};

  function $(id) { return document.getElementById(id); }
  function all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  function posKey(pos) { return pos[0] + "," + pos[1]; }
  function posOf(a) {  // the cell an action builds on or acts at: pos, or x and y (gates)
    if (a.pos && a.pos.length === 2) { return a.pos; }
    if (typeof a.x === "number" && typeof a.y === "number") { return [a.x, a.y]; }
    return null;
  }
  function value(code) { var v = parseInt(String(code).split("-").pop(), 10); return isNaN(v) ? 0 : v; }
  function sameCards(a, b) {
    if (a.length !== b.length) { return false; }
    var x = a.slice().sort(), y = b.slice().sort();
    return x.every(function (c, i) { return c === y[i]; });
  }
  function words(code) {  // a card's words as the page shows them (a module's card: its own name)
    var shown = document.querySelector('.card[data-code="' + code + '"]');
    if (shown) { return shown.getAttribute("title") || shown.textContent; }
    var p = String(code).split("-"); return p.length === 2 ? p[0] + " " + p[1] : String(code);
  }
  function exact(a) { return /, exact[:)]/.test(a.label); }

  // -- sending an action, following the game -------------------------------------------------

  function notice(text) {
    var banner = $("banner");
    if (!banner) { return; }
    var p = $("notice");
    if (!p) { p = document.createElement("p"); p.id = "notice"; p.className = "error"; banner.appendChild(p); }
    p.textContent = text;
  }

  function post(url, body) {
    if (busy) { return; }
    busy = true;
    document.body.classList.add("sending");
    fetch(url, { method: "POST", body: body, credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) {
        return r.json().then(function (j) { return { status: r.status, json: j }; },
                             function () { return { status: r.status, json: {} }; });
      })
      .then(function (res) {
        if (res.status === 200 && data.hotseat && res.json.decider !== data.seat) {
          window.location.href = "/g/" + data.game + "/next";  // the hot seat: pass the device on
          return null;
        }
        var problem = res.status === 200 ? null : res.status === 409 ?
          "Not played: the game had moved on before your action arrived (" + (res.json.error || "409") + "). This page now shows it as it stands." :
          (res.json.error || ("the server answered " + res.status));
        return refresh(true).then(function () { if (problem) { notice(problem); } });
      })
      .catch(function () { notice("The server could not be reached: try again."); })
      .then(function () { busy = false; document.body.classList.remove("sending"); });
  }

  function send(index) {
    var form = $("act");
    if (!form || index === null || index === undefined) { return; }
    var body = new URLSearchParams();
    all("input", form).forEach(function (i) { if (i.name !== "index") { body.append(i.name, i.value); } });
    body.set("index", String(index));
    post(form.getAttribute("action"), body);
  }

  function snapshot() {
    var cities = {};
    all(".city-box, .city-small").forEach(function (box) {
      cities[box.id] = {};
      all("g.alh-tile", box).forEach(function (g) { cities[box.id][g.getAttribute("data-pos") + "=" + g.getAttribute("data-tile")] = true; });
    });
    var market = {};
    all(".market .space").forEach(function (s) { market[s.id] = s.getAttribute("data-tile"); });
    return {
      cities: cities, market: market,
      display: all("#display .card").map(function (c) { return c.getAttribute("data-code"); }),
      log: data ? data.log_size : 0,
      scores: all(".score-track .marker").map(function (m) { return m.textContent; })
    };
  }

  function highlight(before) {
    all(".city-box, .city-small").forEach(function (box) {
      var old = before.cities[box.id];
      if (!old) { return; }
      all("g.alh-tile", box).forEach(function (g) {
        if (!old[g.getAttribute("data-pos") + "=" + g.getAttribute("data-tile")]) { g.classList.add("fresh"); }
      });
    });
    all(".market .space").forEach(function (s) {
      if (before.market[s.id] !== undefined && before.market[s.id] !== s.getAttribute("data-tile")) { s.classList.add("fresh"); }
    });
    var left = before.display.slice();
    all("#display .card").forEach(function (c) {
      var k = left.indexOf(c.getAttribute("data-code"));
      if (k >= 0) { left.splice(k, 1); } else { c.classList.add("fresh"); }
    });
    all(".score-track .marker").forEach(function (m, i) { if (before.scores[i] !== m.textContent) { m.classList.add("fresh"); } });
    var fresh = Math.max(0, (data ? data.log_size : 0) - before.log);
    var items = all("#log li");
    var moves = $("moves");
    var shown = items.slice(Math.max(0, items.length - fresh));
    shown.forEach(function (li) { li.classList.add("fresh"); });
    if (moves && shown.length) {  // the moves just made, one line each, in the banner
      moves.hidden = false;
      shown.forEach(function (li, k) {
        var m = document.createElement("li");
        m.textContent = li.textContent;
        m.className = "fresh" + (li.classList.contains("event") ? " event" : "");
        m.style.animationDelay = (0.35 * k) + "s";
        moves.appendChild(m);
      });
    }
  }

  function refresh(mine) {
    if (fetching) { return Promise.resolve(); }
    fetching = true;
    return fetch(window.location.href, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.text().then(function (t) { return { ok: r.ok, text: t }; }); })
      .then(function (res) {
        var doc = new DOMParser().parseFromString(res.text, "text/html");
        var main = doc.querySelector("main"), header = doc.querySelector("header.top");
        if (!res.ok || !main || !doc.getElementById("table-data")) {
          notice("This page could not follow the game: reload it.");
          return;
        }
        var before = snapshot();
        var open = {};
        all("details[id]").forEach(function (d) { open[d.id] = d.open; });
        var here = document.querySelector("main");
        here.replaceChildren.apply(here, Array.prototype.map.call(main.childNodes, function (n) { return document.importNode(n, true); }));
        var top = document.querySelector("header.top");
        if (header && top) {
          top.replaceChildren.apply(top, Array.prototype.map.call(header.childNodes, function (n) { return document.importNode(n, true); }));
        }
        document.title = doc.title;
        Object.keys(open).forEach(function (id) {
          var d = $(id);
          if (d && id !== "since") { d.open = open[id]; }
        });
        init();
        highlight(before, mine);
      })
      .catch(function () {})
      .then(function () { fetching = false; });
  }

  function poll() {
    if (!data || busy || fetching || document.hidden) { return; }
    var url = "/g/" + data.game + "/version" + (data.token ? "?t=" + encodeURIComponent(data.token) : "");
    fetch(url, { cache: "no-store", credentials: "same-origin" }).then(function (r) { return r.json(); })
      .then(function (v) {
        if (!data) { return; }
        if (v.version !== data.version || Boolean(v.yours) !== Boolean(data.decides) || v.over !== data.over) { refresh(false); }
      })
      .catch(function () {});
  }

  // -- pointing ------------------------------------------------------------------------------

  function clear() {
    var chooser = $("chooser");
    if (chooser) { chooser.replaceChildren(); }
    all(".target").forEach(function (el) {
      el.classList.remove("target", "gate-target", "swap-target");
      el.removeAttribute("data-index");
    });
    all(".coord, .gate-mark").forEach(function (el) { el.parentNode.removeChild(el); });
    all(".picked").forEach(function (el) { el.classList.remove("picked"); });
    var preview = $("preview");
    if (preview) { preview.hidden = true; }
    targets = {};
  }

  function button(a, text) {
    var b = document.createElement("button");
    b.type = "button"; b.className = "act"; b.textContent = text || a.label;
    b.setAttribute("data-index", a.index); b.setAttribute("data-kind", a.kind);
    return b;
  }

  function show(title, list) {
    var chooser = $("chooser");
    if (!chooser) { return; }
    var p = document.createElement("p"); p.className = "hint"; p.textContent = title;
    chooser.appendChild(p);
    list.forEach(function (a) { chooser.appendChild(button(a)); });
  }

  function svgOf(el) { return el.ownerSVGElement || el.closest("svg"); }
  function boxOf(pos) {  // the square of cell pos in my Alhambra's picture: {x, y, s}, or null
    var city = $("my-city");
    var el = city && city.querySelector('[data-pos="' + posKey(pos) + '"]');
    if (!el) { return null; }
    var r = el.tagName.toLowerCase() === "rect" ? el : el.querySelector("rect");
    if (!r) { return null; }
    var x = parseFloat(r.getAttribute("x")), y = parseFloat(r.getAttribute("y")), w = parseFloat(r.getAttribute("width"));
    return { x: x, y: y, s: w, el: el };
  }
  function svgEl(name, attrs) {
    var e = document.createElementNS(SVGNS, name);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }
  function label(box, text) {  // coordinates on a cell of the board
    var t = svgEl("text", { x: box.x + box.s / 2, y: box.y + box.s - 3, "text-anchor": "middle", "class": "coord", "font-size": Math.max(8, box.s / 4) });
    t.textContent = text;
    svgOf(box.el).appendChild(t);
  }
  function sideMark(box, side, cls) {  // a gate drawn on one side of a cell
    var s = box.s, t = Math.max(3, s / 7), long = s * 0.6;
    var attrs = side === 1 ? { x: box.x + (s - long) / 2, y: box.y - t / 2, width: long, height: t } :
                side === 4 ? { x: box.x + (s - long) / 2, y: box.y + s - t / 2, width: long, height: t } :
                side === 8 ? { x: box.x - t / 2, y: box.y + (s - long) / 2, width: t, height: long } :
                             { x: box.x + s - t / 2, y: box.y + (s - long) / 2, width: t, height: long };
    attrs["class"] = cls; attrs.rx = t / 2;
    var r = svgEl("rect", attrs);
    svgOf(box.el).appendChild(r);
    return r;
  }

  function pickTile(key, el) {
    clear();
    if (el) { el.classList.add("picked"); }
    var here = actions.filter(function (a) { return String(a.tile) === key && posOf(a); });
    here.forEach(function (a) {
      var k = posKey(posOf(a));
      (targets[k] = targets[k] || []).push(a);
    });
    Object.keys(targets).forEach(function (k) {
      var list = targets[k], pos = posOf(list[0]);
      var box = boxOf(pos);
      if (!box) { return; }
      box.el.classList.add("target");
      if (list.length === 1) { box.el.setAttribute("data-index", list[0].index); }
      if (list.every(function (a) { return a.kind === "BuildThroughGate"; })) {
        box.el.classList.add("gate-target");
        list.forEach(function (a) { sideMark(box, a.side, "gate-mark"); });
      }
      if (list.every(function (a) { return a.kind === "Swap"; })) { box.el.classList.add("swap-target"); }
      label(box, "(" + pos[0] + ", " + pos[1] + ")");
    });
    var other = actions.filter(function (a) {   // Reserve, GiveToDirk: unless their buttons show already
      return String(a.tile) === key && !posOf(a) && !document.querySelector('#other-actions [data-index="' + a.index + '"]');
    });
    var n = Object.keys(targets).length;
    show(n ? "Point at a highlighted cell to build it" + (here.some(function (a) { return a.kind === "BuildThroughGate"; }) ?
           " (cells marked with a gate: built through a gate on that side)" : "") + (other.length ? ", or:" : ".") :
         (other.length ? "This tile can go:" : "This tile cannot be built in your Alhambra now."), other);
  }

  function previewAt(key) {
    var preview = $("preview"), list = targets[key];
    if (!preview || !list || !list[0].preview) { return; }
    var a = list[0], p = a.preview, pos = posOf(a);
    var st = data.standings, mine = null, others = {};
    (st ? st.rows : []).forEach(function (r) {
      if (r.seat === data.seat) { mine = r; return; }
      Object.keys(r.counts).forEach(function (t) { others[t] = Math.max(others[t] || 0, r.counts[t]); });
    });
    var text = (a.kind === "Swap" ? "Swapped in at (" : "Built at (") + pos[0] + ", " + pos[1] + "): longest outer wall " + p.wall;
    if (mine) {
      text += " (now " + mine.wall + ")";
      Object.keys(p.counts).forEach(function (t) {
        if (p.counts[t] !== mine.counts[t]) {
          var best = others[t] || 0;
          text += "; your " + t + " buildings " + mine.counts[t] + " → " + p.counts[t] + " (most of the others: " + best +
            (p.counts[t] > best ? ", you would lead" : p.counts[t] === best ? ", a tie" : ", still behind") + ")";
        }
      });
    }
    preview.textContent = text + ".";
    preview.hidden = false;
  }

  function clickCity(el) {
    var key = el.getAttribute("data-pos");
    if (el.classList.contains("target")) {
      var list = targets[key] || [];
      if (list.length === 1) { send(list[0].index); return; }
      var chooser = $("chooser");
      chooser.replaceChildren();
      previewAt(key);
      show("At " + "(" + key.replace(",", ", ") + "):", list);
      return;
    }
    var moves = actions.filter(function (a) {
      return (a.kind === "RemoveToReserve" || a.kind === "Swap") && a.pos && posKey(a.pos) === key;
    });
    if (moves.length) {
      clear(); el.classList.add("picked");
      var t = el.querySelector("title");
      show((t ? t.textContent : "The tile at (" + key + ")") + ":", moves);
    }
  }

  // -- taking money --------------------------------------------------------------------------

  function takes() { return actions.filter(function (a) { return a.kind === "TakeMoney"; }); }
  function selectedTake() {
    return all("#display .card.selected").map(function (c) { return c.getAttribute("data-code"); });
  }
  function updateTake() {
    var panel = $("take-panel");
    if (!panel) { return; }
    var picked = selectedTake(), limit = typeof data.take_limit === "number" ? data.take_limit : 5;
    panel.hidden = picked.length === 0;
    var sum = picked.reduce(function (t, c) { return t + value(c); }, 0);
    var chosen = takes().filter(function (a) { return sameCards(a.cards, picked); })[0] || null;
    var text = picked.map(words).join(" + ") + " = " + sum + ". ";
    if (chosen) {
      text += picked.length === 1 ? "One card may be of any value." : "Several cards may total at most " + limit + ": fine.";
    } else if (picked.length > 1 && sum > limit) {
      text += "Several cards may total at most " + limit + " (R-TURN-2): " + sum + " is too much.";
    } else {
      text += "You cannot take these cards together.";
    }
    var line = $("take-sum"), go = $("take-selected");
    line.textContent = text;
    line.className = "hint " + (chosen ? "ok" : "bad");
    go.disabled = !chosen;
    go.setAttribute("data-choice", chosen ? chosen.index : "");
  }
  function clickDisplayCard(card) {
    if (!data.decides) { return; }
    var code = card.getAttribute("data-code");
    if (selectedTake().length) { card.classList.toggle("selected"); updateTake(); return; }
    var one = actions.filter(function (a) {
      return (a.kind === "TakeMoney" && a.cards.length === 1 && a.cards[0] === code) || a.office === code || a.card === code;
    })[0];
    if (one) { send(one.index); return; }
    card.classList.toggle("selected"); updateTake();
  }

  // -- paying --------------------------------------------------------------------------------

  var payment = null;
  function selectPayment(a) {
    payment = a;
    all("#pay-options .payment").forEach(function (b) { b.classList.toggle("selected", a !== null && b.getAttribute("data-index") === String(a.index)); });
    if (a) {  // its cards marked in the hand beside it
      all("#pay-cards .card").forEach(function (c) { c.classList.remove("selected"); });
      (a.cards || []).forEach(function (code) {
        var free = all('#pay-cards .card[data-code="' + code + '"]').filter(function (c) { return !c.classList.contains("selected"); });
        if (free.length) { free[0].classList.add("selected"); }
      });
    }
    updatePay();
  }
  function updatePay() {
    var space = $("pay-panel").getAttribute("data-space");
    var el = $("space-" + space);
    var price = parseInt(el ? el.getAttribute("data-price") : "", 10);
    var picked = all("#pay-cards .card.selected").map(function (c) { return c.getAttribute("data-code"); });
    var sum = picked.reduce(function (t, c) { return t + value(c); }, 0);
    var line = $("pay-sum"), go = $("pay-selected");
    var text;
    if (payment) {
      text = payment.label.charAt(0).toUpperCase() + payment.label.slice(1) + ".";
    } else {
      text = picked.length ? picked.map(words).join(" + ") + " = " + sum + ": " : "Nothing selected. ";
      if (!picked.length) { text += "choose cards totalling at least " + price + "."; }
      else if (sum < price) { text += "short by " + (price - sum) + "."; }
      else if (sum === price) { text += "exact, but not a payment allowed here."; }
      else { text += "overpaid by " + (sum - price) + ", but not a payment allowed here."; }
    }
    var paid = payment ? (payment.cards || []).reduce(function (t, c) { return t + value(c); }, 0) : 0;
    if (payment && payment.kind !== "UseVizier" && exact(payment)) { text += " It is exact: you get another action (R-TURN-4)."; }
    else if (payment && exact(payment)) { text += " It is exact (R-VIZ-2)."; }
    else if (payment && !payment.via && paid > price) { text += " It is overpaid by " + (paid - price) + ": no change is given."; }
    line.textContent = text;
    line.className = "hint " + (payment ? "ok" : "bad");
    go.disabled = !payment;
    go.textContent = payment ? "Pay: " + payment.label.replace(/^pay /, "") : "Pay with the selected cards";
  }
  function showPayment(space, el) {
    var panel = $("pay-panel");
    var buys = actions.filter(function (a) { return String(a.space) === space; });
    if (!panel || !buys.length) { return false; }
    var price = parseInt(el.getAttribute("data-price"), 10), currency = el.getAttribute("data-currency");
    var key = function (a) {  // the best first: exact, no office or diamond spent, the fewest cards
      return [exact(a) ? 0 : 1, a.via ? 1 : 0, a.kind === "BuyWithDiamonds" ? 1 : 0,
              exact(a) ? 0 : (a.cards || []).reduce(function (t, c) { return t + value(c); }, 0), (a.cards || []).length];
    };
    var sorted = buys.slice().sort(function (a, b) {
      var x = key(a), y = key(b);
      for (var i = 0; i < x.length; i++) { if (x[i] !== y[i]) { return x[i] - y[i]; } }
      return a.index - b.index;
    });
    var box = $("pay-options");
    box.replaceChildren();
    sorted.forEach(function (a) {
      var b = document.createElement("button");
      b.type = "button"; b.className = "payment" + (exact(a) ? " exact" : "");
      b.setAttribute("data-index", a.index); b.setAttribute("data-kind", a.kind);
      b.textContent = a.label.replace(/^pay /, "");
      if (exact(a)) { var mark = document.createElement("span"); mark.className = "badge"; mark.textContent = "exact"; b.insertBefore(mark, b.firstChild); }
      box.appendChild(b);
    });
    var cards = $("pay-cards");
    cards.replaceChildren();
    (data.hand || []).filter(function (c) {  // the space's currency, or a module's money for any space (diamonds, R-DIA-4)
      return c.currency === currency || (c.currency && MARKET.indexOf(c.currency) < 0);
    }).forEach(function (c) {
      var s = document.createElement("span");
      s.className = "card " + c.currency; s.textContent = c.words; s.setAttribute("data-code", c.code);
      cards.appendChild(s);
    });
    var vizier = buys[0].kind === "UseVizier";
    $("pay-title").textContent = "Pay " + price + " in " + currency + " for the " +
      (el.querySelector(".price") ? el.querySelector(".price").textContent.split("price")[0].trim() : "building") +
      ": choose a payment" + (vizier ? " (the vizier takes an exact payment only, R-VIZ-2)" : "") +
      (sorted.some(exact) ? "; the best exact one is chosen." : ".");
    panel.setAttribute("data-space", space);
    panel.hidden = false;
    selectPayment(exact(sorted[0]) ? sorted[0] : null);
    return true;
  }
  function togglePayCard(c) {
    c.classList.toggle("selected");
    var picked = all("#pay-cards .card.selected").map(function (x) { return x.getAttribute("data-code"); });
    var space = $("pay-panel").getAttribute("data-space");
    payment = actions.filter(function (a) { return String(a.space) === space && !a.via && sameCards(a.cards || [], picked); })[0] || null;
    all("#pay-options .payment").forEach(function (b) { b.classList.toggle("selected", payment !== null && b.getAttribute("data-index") === String(payment.index)); });
    updatePay();
  }

  function pick(value, el) {
    var sep = value.indexOf(":"), kind = value.slice(0, sep), key = value.slice(sep + 1);
    if (kind === "space") {
      clear();
      el.classList.add("picked");
      var panel = $("pay-panel");
      if (panel) { panel.hidden = true; }
      if (!showPayment(key, el)) { show("You cannot buy this building now.", []); }
    } else if (kind === "tile") {
      pickTile(key, el);
    }
  }

  // -- one listener for the whole page -------------------------------------------------------

  document.addEventListener("click", function (ev) {
    if (!data) { return; }
    var t = ev.target, el;
    if (!(t instanceof Element)) { return; }
    if ((el = t.closest("button.act[data-index]"))) { ev.preventDefault(); send(el.getAttribute("data-index")); return; }
    if ((el = t.closest("#display .card .plus"))) { ev.preventDefault(); el.parentNode.classList.toggle("selected"); updateTake(); return; }
    if ((el = t.closest("#display .card"))) { clickDisplayCard(el); return; }
    if ((el = t.closest("#take-selected"))) { if (el.getAttribute("data-choice")) { send(el.getAttribute("data-choice")); } return; }
    if ((el = t.closest(".beside-market .card.can"))) { send(el.getAttribute("data-index")); return; }
    if ((el = t.closest("#pay-options .payment"))) {
      var a = actions.filter(function (x) { return String(x.index) === el.getAttribute("data-index"); })[0];
      selectPayment(a || null); return;
    }
    if ((el = t.closest("#pay-cards .card"))) { togglePayCard(el); return; }
    if ((el = t.closest("#pay-selected"))) { if (payment) { send(payment.index); } return; }
    if ((el = t.closest("#my-city .gate-spot"))) { send(el.getAttribute("data-index")); return; }
    if ((el = t.closest("[data-pick]"))) { ev.stopPropagation(); pick(el.getAttribute("data-pick"), el); return; }
    if ((el = t.closest("#my-city [data-pos]"))) { clickCity(el); return; }
    if ((el = t.closest(".huts .stack.can, .bonus.can, .token.can"))) { send(el.getAttribute("data-index")); return; }
  });
  document.addEventListener("submit", function (ev) {  // the undo button, any form of the page
    var form = ev.target;
    if (!data || !(form instanceof HTMLFormElement) || !form.classList.contains("undo")) { return; }
    ev.preventDefault();
    post(form.getAttribute("action"), new URLSearchParams(new FormData(form)));
  });
  document.addEventListener("mouseover", function (ev) {
    var el = ev.target instanceof Element ? ev.target.closest("#my-city .target") : null;
    if (el) { previewAt(el.getAttribute("data-pos")); }
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape") { all(".zoomed").forEach(function (z) { pinned[z.id] = false; z.classList.remove("zoomed"); }); }
  });

  // -- after each (re)load: the board's marks --------------------------------------------------

  function decorate() {
    // money: a card taken alone by one click; "+" marks it for a take of several
    var multi = {};
    takes().forEach(function (a) { if (a.cards.length > 1) { a.cards.forEach(function (c) { multi[c] = true; }); } });
    var display = $("display");
    if (display && data.decides) {
      all(".card", display).forEach(function (c) {
        var code = c.getAttribute("data-code");
        var one = actions.some(function (a) {
          return (a.kind === "TakeMoney" && a.cards.length === 1 && a.cards[0] === code) || a.office === code;
        });
        if (one) { c.classList.add("can"); c.title = (c.title || "") + ": point to take it"; }
        if (multi[code] || (one && Object.keys(multi).length && !/^office-/.test(code))) {  // a selection that breaks R-TURN-2 is explained
          var plus = document.createElement("button");
          plus.type = "button"; plus.className = "plus"; plus.textContent = "+";
          plus.title = "take it together with other cards";
          c.appendChild(plus);
        }
      });
    }
    all(".beside-market .card").forEach(function (c) {
      var a = actions.filter(function (x) { return x.card === c.getAttribute("data-code"); })[0];
      if (a) { c.classList.add("can"); c.setAttribute("data-index", a.index); c.title = a.label; }
    });
    all(".huts .stack.can").forEach(function (s) {
      var a = actions.filter(function (x) { return x.kind === "TakeHut" && x.hut === s.getAttribute("data-hut"); })[0];
      if (a) { s.setAttribute("data-index", a.index); s.title = a.label; } else { s.classList.remove("can"); }
    });
    all(".bonus.can").forEach(function (s) {
      var a = actions.filter(function (x) { return x.kind === "RevealBonus" && String(x.building) === s.getAttribute("data-bonus"); })[0];
      if (a) { s.setAttribute("data-index", a.index); s.title = a.label; } else { s.classList.remove("can"); }
    });
    all(".token.can").forEach(function (s) {
      var a = actions.filter(function (x) { return x.kind === "ReactivateVizier"; })[0];
      if (a) { s.setAttribute("data-index", a.index); } else { s.classList.remove("can"); }
    });
    var city = $("my-city");
    if (city) {
      actions.forEach(function (a) {
        if ((a.kind === "RemoveToReserve" || a.kind === "Swap") && a.pos) {
          var g = city.querySelector('g.alh-tile[data-pos="' + posKey(a.pos) + '"]');
          if (g) { g.classList.add("removable"); }
        }
      });
      // a gate on a double wall: a mark across the wall, one click to play it (R-GATE-5)
      var spots = {};
      actions.forEach(function (a) {
        if (a.kind !== "PlayGate") { return; }
        var k = a.x + "," + a.y + "," + a.side;
        if (!spots[k]) { spots[k] = a; }
      });
      Object.keys(spots).forEach(function (k) {
        var a = spots[k], box = boxOf([a.x, a.y]);
        if (!box) { return; }
        var other = [a.x + STEP[a.side][0], a.y + STEP[a.side][1]];
        var r = sideMark(box, a.side, "gate-spot");
        r.setAttribute("data-index", a.index);
        r.setAttribute("data-x", a.x); r.setAttribute("data-y", a.y); r.setAttribute("data-side", SIDES[a.side]);
        var title = svgEl("title", {});
        title.textContent = "put a gate on the double wall between (" + a.x + ", " + a.y + ") and (" + other[0] + ", " + other[1] + ")";
        r.appendChild(title);
      });
    }
  }

  function bindZoom() {
    all(".zoomable").forEach(function (z) {
      var timer = null;
      if (pinned[z.id]) { z.classList.add("zoomed"); }
      z.addEventListener("click", function () {
        clearTimeout(timer);
        pinned[z.id] = !pinned[z.id];
        z.classList.toggle("zoomed", pinned[z.id]);
      });
      z.addEventListener("mouseenter", function () {
        var spot = z.getBoundingClientRect();
        timer = setTimeout(function () { spots[z.id] = spot; z.classList.add("zoomed"); }, 350);
      });
      z.addEventListener("mouseleave", function () { clearTimeout(timer); });
    });
  }
  // large while the pointer stays on it or on its place (zooming moves it from under the pointer)
  var spots = {};
  function inside(r, x, y) { return r && x >= r.left && x <= r.right && y >= r.top && y <= r.bottom; }
  document.addEventListener("mousemove", function (ev) {
    all(".zoomed").forEach(function (z) {
      if (!pinned[z.id] && !inside(z.getBoundingClientRect(), ev.clientX, ev.clientY) && !inside(spots[z.id], ev.clientX, ev.clientY)) {
        z.classList.remove("zoomed");
      }
    });
  });

  function init() {
    var node = $("table-data");
    data = node ? JSON.parse(node.textContent) : null;
    actions = data ? data.actions || [] : [];
    targets = {}; payment = null;
    all(".log").forEach(function (l) { l.scrollTop = l.scrollHeight; });
    if (!data) { return; }
    if (takes().length && $("display")) { $("display").classList.add("selectable"); }
    decorate();
    bindZoom();
    // a building to place: picked already, its cells highlighted (one click to build it)
    var pending = (data.pending || []).filter(function (t) {
      return actions.some(function (a) { return String(a.tile) === String(t) && posOf(a); });
    });
    if (data.decides && pending.length) {
      var chip = document.querySelector('#pending [data-pick="tile:' + pending[0] + '"]');
      if (chip) { pickTile(String(pending[0]), chip); }
    }
  }

  // the new-game form: a seat's search budget shown only for a searching bot
  all("select.seat-kind").forEach(function (sel) {
    var budget = document.querySelector('.budget[data-for="' + sel.id + '"]');
    if (!budget) { return; }
    var update = function () { budget.hidden = sel.value !== "mcts"; };
    sel.addEventListener("change", update);
    update();
  });

  init();
  if (data) { setInterval(poll, 500); }
})();
