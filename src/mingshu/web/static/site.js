// Small progressive enhancements; every page works without this file.
"use strict";
(function () {
  // City search: suggestions from /api/cities as the reader types.  A suggestion is the
  // city's whole label (name, country, zone, coordinates: same-name cities differ), and
  // taking one puts its GeoNames id in the form, so the server never guesses.
  const place = document.querySelector("input[data-city-search]");
  if (place) {
    const list = document.getElementById("place-options");
    const ids = new Map();  // label -> city id, of the suggestions shown
    let timer = null;
    place.addEventListener("input", function () {
      clearTimeout(timer);
      const q = place.value.trim();
      const hidden = place.form.querySelector("input[type=hidden][name=city]");
      if (hidden) hidden.remove();  // a new place: search again on submit
      if (ids.has(q)) {
        const city = document.createElement("input");
        city.type = "hidden";
        city.name = "city";
        city.value = String(ids.get(q));
        place.after(city);
        return;
      }
      if (!q) return;
      timer = setTimeout(function () {
        fetch("/api/cities?limit=8&q=" + encodeURIComponent(q))
          .then(function (r) { return r.ok ? r.json() : []; })
          .then(function (cities) {
            list.replaceChildren();
            ids.clear();
            cities.forEach(function (c) {
              const o = document.createElement("option");
              o.value = c.label;
              ids.set(c.label, c.id);
              list.appendChild(o);
            });
          })
          .catch(function () {});
      }, 150);
    });
  }
  // Clicking a star on the board opens its rule (the same page the star list links to).
  // The rule shows in a panel above the board; without a panel (an error), the page opens.
  const panel = document.getElementById("star-panel");
  function showStar(href) {
    fetch(href)
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (text) {
        const main = new DOMParser().parseFromString(text, "text/html").querySelector("main");
        if (!main || !panel) { window.location.href = href; return; }
        panel.replaceChildren.apply(panel, Array.from(main.childNodes).map(function (n) {
          return document.importNode(n, true);
        }));
        panel.hidden = false;
        panel.scrollIntoView({block: "nearest"});
      })
      .catch(function () { window.location.href = href; });
  }
  // A star's name on the board is a link to its rule: the panel opens it in place
  // (a click, or Enter on the focused link).
  function starClicks(svg) {
    svg.addEventListener("click", function (e) {
      const link = e.target.closest("a.star-link");
      if (!link) return;
      e.preventDefault();
      e.stopPropagation();
      showStar(link.getAttribute("href"));
    });
  }
  // Click a palace: its 三方四正 are shaded, its four 飞化 drawn as arrows to the palaces
  // they fly to, and 自化 (a flight into itself) written in the palace.  The data is the
  // analysis API's, carried on the board's container.
  const SVGNS = "http://www.w3.org/2000/svg";
  const MUTAGENS = {lu: ["禄", "#2e7d32"], quan: ["权", "#6a1b9a"], ke: ["科", "#1565c0"], ji: ["忌", "#c62828"]};
  const holder = document.getElementById("ziwei-analysis");
  let analysis = null;
  try { analysis = holder ? JSON.parse(holder.getAttribute("data-analysis") || "null") : null; }
  catch (err) { analysis = null; }
  function centre(g) {
    const b = g.querySelector("rect").getBBox();
    return [b.x + b.width / 2, b.y + b.height / 2, b];
  }
  function clearPalace(svg) {
    svg.querySelectorAll("g.palace").forEach(function (g) {
      g.classList.remove("sel", "sfsz");
      g.setAttribute("aria-pressed", "false");
    });
    svg.querySelectorAll(".ms-overlay").forEach(function (o) { o.remove(); });
  }
  function marker(svg, id, colour) {
    let defs = svg.querySelector("defs.ms-defs");
    if (!defs) {
      defs = document.createElementNS(SVGNS, "defs");
      defs.setAttribute("class", "ms-defs");
      svg.insertBefore(defs, svg.firstChild);
    }
    if (svg.querySelector("#" + id)) return;
    const m = document.createElementNS(SVGNS, "marker");
    m.setAttribute("id", id);
    m.setAttribute("viewBox", "0 0 10 10");
    m.setAttribute("refX", "9"); m.setAttribute("refY", "5");
    m.setAttribute("markerWidth", "7"); m.setAttribute("markerHeight", "7");
    m.setAttribute("orient", "auto-start-reverse");
    const p = document.createElementNS(SVGNS, "path");
    p.setAttribute("d", "M0,0 L10,5 L0,10 z");
    p.setAttribute("fill", colour);
    m.appendChild(p);
    defs.appendChild(m);
  }
  function showPalace(svg, g, prefix) {
    const branch = g.getAttribute("data-branch");
    const wasSelected = g.classList.contains("sel");
    clearPalace(svg);
    if (wasSelected || !analysis || !analysis[branch]) return;
    const a = analysis[branch];
    g.classList.add("sel");
    g.setAttribute("aria-pressed", "true");
    Object.values(a.surrounded).forEach(function (b) {
      const t = svg.querySelector('g.palace[data-branch="' + b + '"]');
      if (t) t.classList.add("sfsz");
    });
    const overlay = document.createElementNS(SVGNS, "g");
    overlay.setAttribute("class", "ms-overlay");
    overlay.setAttribute("aria-hidden", "true");
    const from = centre(g);
    let lane = 0;
    Object.keys(MUTAGENS).forEach(function (m) {
      const to = a.flies[m];
      if (!to || to === branch) return;
      const target = svg.querySelector('g.palace[data-branch="' + to + '"]');
      if (!target) return;
      const end = centre(target);
      const id = prefix + "-arrow-" + m;
      marker(svg, id, MUTAGENS[m][1]);
      const shift = (lane++ - 1.5) * 6;  // four arrows side by side, not on one line
      const line = document.createElementNS(SVGNS, "line");
      line.setAttribute("x1", from[0] + shift); line.setAttribute("y1", from[1] + shift);
      line.setAttribute("x2", end[0] + shift); line.setAttribute("y2", end[1] + shift);
      line.setAttribute("stroke", MUTAGENS[m][1]);
      line.setAttribute("stroke-width", "2");
      line.setAttribute("marker-end", "url(#" + id + ")");
      overlay.appendChild(line);
      const label = document.createElementNS(SVGNS, "text");
      label.setAttribute("x", (from[0] * 0.35 + end[0] * 0.65 + shift).toFixed(1));
      label.setAttribute("y", (from[1] * 0.35 + end[1] * 0.65 + shift - 3).toFixed(1));
      label.setAttribute("fill", MUTAGENS[m][1]);
      label.setAttribute("font-size", "14");
      label.setAttribute("font-weight", "bold");
      label.textContent = "化" + MUTAGENS[m][0];
      overlay.appendChild(label);
    });
    if (a.self_mutagens.length) {
      const b = from[2];
      const mark = document.createElementNS(SVGNS, "text");
      mark.setAttribute("x", (b.x + b.width - 6).toFixed(1));
      mark.setAttribute("y", (b.y + 18).toFixed(1));
      mark.setAttribute("text-anchor", "end");
      mark.setAttribute("font-size", "13");
      mark.setAttribute("fill", "#c62828");
      mark.setAttribute("class", "self-mutagen");
      mark.textContent = "自化" + a.self_mutagens.map(function (m) { return MUTAGENS[m][0]; }).join("");
      overlay.appendChild(mark);
    }
    svg.appendChild(overlay);
  }
  function palaceClicks(svg, prefix) {
    svg.querySelectorAll("g.palace").forEach(function (g) {
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      g.setAttribute("aria-pressed", "false");
      g.addEventListener("keydown", function (e) {
        if ((e.key === "Enter" || e.key === " ") && e.target === g) {
          e.preventDefault();
          showPalace(svg, g, prefix);
        }
      });
    });
    svg.addEventListener("click", function (e) {
      if (e.target.closest("a.star-link")) return;
      const g = e.target.closest("g.palace");
      if (g) showPalace(svg, g, prefix);
    });
  }
  function hook(svg, prefix) {
    starClicks(svg);
    if (analysis) palaceClicks(svg, prefix);
  }
  const board = document.querySelector(".board svg");
  if (board) hook(board, "l0");
  // The phone layout is drawn only for a screen that shows it (the stylesheet shows it
  // under 600 px instead of the board): fetched, with its star links, the first time the
  // screen is that narrow, now or when the window narrows.  If the fetch fails, its image
  // instead.
  // The screen's width decides, as in the stylesheet, not the box's computed style, which
  // needs the stylesheet applied first.
  const column = document.getElementById("ziwei-column");
  const narrow = window.matchMedia("(max-width: 600px)");
  if (column && column.dataset.src) {
    let asked = false;
    const fill = function () {
      if (asked || !narrow.matches) return;
      asked = true;
      fetch(column.dataset.src)
        .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
        .then(function (text) {
          const svg = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
          if (svg.nodeName !== "svg") return Promise.reject("not an SVG");
          column.replaceChildren(document.importNode(svg, true));
          hook(column.querySelector("svg"), "l1");
        })
        .catch(function () {
          const img = document.createElement("img");
          img.src = column.dataset.src;
          img.alt = column.dataset.alt || "";
          column.replaceChildren(img);
        });
    };
    fill();
    narrow.addEventListener("change", fill);
  }
  const help = document.getElementById("palace-help");
  if (help && analysis) help.hidden = false;
  const print = document.getElementById("print-link");
  if (print) {
    print.hidden = false;
    print.addEventListener("click", function (e) { e.preventDefault(); window.print(); });
  }
})();
