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
      show(buys.length ? "Pay for the building on space " + key + ":" : "You cannot buy this building now.", buys);
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
