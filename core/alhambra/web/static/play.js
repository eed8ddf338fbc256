// The play page: point at the market, a tile or a cell; the chosen action is sent as its
// index in the listed actions together with the version it was listed in (a stale page gets
// a 409). No library, no build step.
(function () {
  "use strict";
  document.querySelectorAll(".log").forEach(function (l) { l.scrollTop = l.scrollHeight; });
  var node = document.getElementById("table-data");
  if (!node) { return; }
  var data = JSON.parse(node.textContent);
  var actions = data.actions || [];
  var form = document.getElementById("act");
  var chooser = document.getElementById("chooser");
  var city = document.getElementById("my-city");

  function send(index) {
    var input = document.createElement("input");
    input.type = "hidden"; input.name = "index"; input.value = String(index);
    form.appendChild(input);
    form.submit();
  }

  function button(a) {
    var b = document.createElement("button");
    b.type = "button"; b.className = "act"; b.textContent = a.label;
    b.setAttribute("data-index", a.index); b.setAttribute("data-kind", a.kind);
    b.addEventListener("click", function () { send(a.index); });
    return b;
  }

  function posKey(pos) { return pos[0] + "," + pos[1]; }

  function clear() {
    if (chooser) { chooser.innerHTML = ""; }
    document.querySelectorAll(".target").forEach(function (el) {
      el.classList.remove("target"); el.removeAttribute("data-index");
    });
    document.querySelectorAll(".picked").forEach(function (el) { el.classList.remove("picked"); });
  }

  function show(title, list) {
    if (!chooser) { return; }
    var p = document.createElement("p"); p.className = "hint"; p.textContent = title;
    chooser.appendChild(p);
    list.forEach(function (a) { chooser.appendChild(button(a)); });
  }

  function markTargets(list) {
    if (!city) { return; }
    list.forEach(function (a) {
      var el = city.querySelector('[data-pos="' + posKey(a.pos) + '"]');
      if (el) { el.classList.add("target"); el.setAttribute("data-index", a.index); }
    });
  }

  function pick(value, el) {
    clear();
    if (el) { el.classList.add("picked"); }
    var sep = value.indexOf(":");
    var kind = value.slice(0, sep), key = value.slice(sep + 1);
    if (kind === "space") {
      var buys = actions.filter(function (a) { return String(a.space) === key; });
      if (payPanel) { payPanel.hidden = true; }
      if (!showPayment(key, buys, el)) {
        show(buys.length ? "Pay for the building on space " + key + ":" : "You cannot buy this building now.", buys);
      }
    } else if (kind === "tile") {
      var here = actions.filter(function (a) { return String(a.tile) === key && a.pos; });
      markTargets(here);
      var other = actions.filter(function (a) {   // Reserve, GiveToDirk: unless their buttons show already
        return String(a.tile) === key && !a.pos && !document.querySelector('#other-actions [data-index="' + a.index + '"]');
      });
      show(here.length ? "Point at a highlighted cell to build it" + (other.length ? ", or:" : ".") :
           (other.length ? "This tile can go:" : "This tile cannot be built in your Alhambra now."), other);
    }
  }

  document.querySelectorAll("[data-pick]").forEach(function (el) {
    el.addEventListener("click", function (ev) { ev.stopPropagation(); pick(el.getAttribute("data-pick"), el); });
  });

  if (city) {
    city.addEventListener("click", function (ev) {
      var el = ev.target.closest("[data-pos]");
      if (!el) { return; }
      if (el.classList.contains("target")) { send(el.getAttribute("data-index")); return; }
      var key = el.getAttribute("data-pos");
      var moves = actions.filter(function (a) { return a.kind === "RemoveToReserve" && posKey(a.pos) === key; });
      if (moves.length) { clear(); el.classList.add("picked"); show("The tile at " + key + ":", moves); }
    });
    actions.forEach(function (a) {
      if (a.kind === "RemoveToReserve") {
        var t = city.querySelector('g.alh-tile[data-pos="' + posKey(a.pos) + '"]');
        if (t) { t.classList.add("removable"); }
      }
    });
  }

  function sameCards(a, b) {
    if (a.length !== b.length) { return false; }
    var x = a.slice().sort(), y = b.slice().sort();
    return x.every(function (c, i) { return c === y[i]; });
  }
  function value(code) { var v = parseInt(code.split("-").pop(), 10); return isNaN(v) ? 0 : v; }
  function words(code) {  // a card's words as the page shows them (a module's card: its own name)
    var shown = document.querySelector('.card[data-code="' + code + '"]');
    if (shown) { return shown.getAttribute("title") || shown.textContent; }
    var p = code.split("-"); return p.length === 2 ? p[0] + " " + p[1] : code;
  }
  var MARKET = ["florin", "dirham", "dinar", "ducat"];

  // taking money by selecting cards of the money display (R-TURN-2: one card, or several
  // totalling at most the rule set's total, 5 in the rules); the matching listed action is sent
  var takeLimit = typeof data.take_limit === "number" ? data.take_limit : 5;
  var takes = actions.filter(function (a) { return a.kind === "TakeMoney"; });
  var display = document.getElementById("display");
  var takePanel = document.getElementById("take-panel");
  if (takes.length && display && takePanel) {
    display.classList.add("selectable");
    var takeSum = document.getElementById("take-sum"), takeButton = document.getElementById("take-selected");
    var chosen = null;
    var updateTake = function () {
      var picked = Array.prototype.filter.call(display.querySelectorAll(".card"), function (c) {
        return c.classList.contains("selected");
      }).map(function (c) { return c.getAttribute("data-code"); });
      takePanel.hidden = picked.length === 0;
      var sum = picked.reduce(function (t, c) { return t + value(c); }, 0);
      chosen = takes.filter(function (a) { return sameCards(a.cards, picked); })[0] || null;
      var text = picked.map(words).join(" + ") + " = " + sum + ". ";
      if (chosen) {
        text += picked.length === 1 ? "One card may be of any value." : "Several cards may total at most " + takeLimit + ": fine.";
      } else if (picked.length > 1 && sum > takeLimit) {
        text += "Several cards may total at most " + takeLimit + " (R-TURN-2): " + sum + " is too much.";
      } else {
        text += "You cannot take these cards together.";
      }
      takeSum.textContent = text;
      takeSum.className = "hint " + (chosen ? "ok" : "bad");
      takeButton.disabled = !chosen;
    };
    display.querySelectorAll(".card").forEach(function (c) {
      c.addEventListener("click", function () { c.classList.toggle("selected"); updateTake(); });
    });
    takeButton.addEventListener("click", function () { if (chosen) { send(chosen.index); } });
  }

  // paying by selecting cards of the hand next to the building: exact or overpaid shown
  var payPanel = document.getElementById("pay-panel");
  function showPayment(space, buys, el) {
    if (!payPanel) { return false; }
    var plain = buys.filter(function (a) { return !a.via; });
    var others = buys.filter(function (a) { return a.via; });
    if (!plain.length) { return false; }
    var cur = el ? el.className.match(/cur-(\w+)/) : null;
    var currency = cur ? cur[1] : "";
    var price = parseInt((el && el.querySelector(".price") || { textContent: "" }).textContent.replace(/.*price /, ""), 10);
    var box = document.getElementById("pay-cards");
    box.innerHTML = "";
    (data.hand || []).filter(function (c) {  // the space's currency, or a module's money for any space (diamonds, R-DIA-4)
      return c.currency === currency || (c.currency && MARKET.indexOf(c.currency) < 0);
    }).forEach(function (c) {
      var s = document.createElement("span");
      s.className = "card " + c.currency; s.textContent = c.words; s.setAttribute("data-code", c.code);
      box.appendChild(s);
    });
    var title = document.getElementById("pay-title"), sumLine = document.getElementById("pay-sum");
    var payButton = document.getElementById("pay-selected");
    var vizier = plain[0].kind === "UseVizier";
    title.textContent = "Pay " + price + " in " + currency + " for the building on space " + space +
      ": point at cards of your hand" + (vizier ? " (the vizier takes an exact payment only, R-VIZ-2)." : ".");
    var chosenBuy = null;
    var update = function () {
      var picked = Array.prototype.filter.call(box.querySelectorAll(".card"), function (c) {
        return c.classList.contains("selected");
      }).map(function (c) { return c.getAttribute("data-code"); });
      var sum = picked.reduce(function (t, c) { return t + value(c); }, 0);
      chosenBuy = plain.filter(function (a) { return sameCards(a.cards, picked); })[0] || null;
      var text = picked.length ? picked.map(words).join(" + ") + " = " + sum + ": " : "Nothing selected. ";
      if (!picked.length) { text += "choose cards totalling at least " + price + "."; }
      else if (sum < price) { text += "short by " + (price - sum) + "."; }
      else if (sum === price) { text += vizier ? "exact." : "exact: you get another action (R-TURN-4)."; }
      else { text += "overpaid by " + (sum - price) + " (no change is given)."; }
      if (picked.length && !chosenBuy && sum >= price) { text += " This payment is not allowed here."; }
      sumLine.textContent = text;
      sumLine.className = "hint " + (chosenBuy ? "ok" : "bad");
      payButton.disabled = !chosenBuy;
    };
    box.querySelectorAll(".card").forEach(function (c) {
      c.addEventListener("click", function () { c.classList.toggle("selected"); update(); });
    });
    payButton.onclick = function () { if (chosenBuy) { send(chosenBuy.index); } };
    var other = document.getElementById("pay-other");
    other.innerHTML = "";
    others.forEach(function (a) { other.appendChild(button(a)); });
    update();
    payPanel.hidden = false;
    return true;
  }

  // another player's Alhambra large on hover or click
  document.querySelectorAll(".zoomable").forEach(function (z) {
    // hover: large while the pointer stays; click: large until clicked again (or Escape)
    var timer = null, pinned = false;
    z.addEventListener("click", function () {
      clearTimeout(timer);
      pinned = !pinned;
      z.classList.toggle("zoomed", pinned);
    });
    z.addEventListener("mouseenter", function () {
      timer = setTimeout(function () { z.classList.add("zoomed"); }, 350);
    });
    z.addEventListener("mouseleave", function () {
      clearTimeout(timer);
      if (!pinned) { z.classList.remove("zoomed"); }
    });
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape") { document.querySelectorAll(".zoomed").forEach(function (z) { z.click(); }); }
  });

  // pages that wait for someone else follow the game: reload when its version changes
  // (with the seat's token: its page also learns that it is asked by the vizier, R-VIZ-5)
  if (!data.decides && !data.over) {
    var url = "/g/" + data.game + "/version" + (data.token ? "?t=" + encodeURIComponent(data.token) : "");
    setInterval(function () {
      fetch(url, { cache: "no-store" }).then(function (r) { return r.json(); })
        .then(function (v) { if (v.version !== data.version || v.yours) { window.location.reload(); } })
        .catch(function () {});
    }, 700);
  }
})();
