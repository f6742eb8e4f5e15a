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
  function starClicks(svg) {
    svg.addEventListener("click", function (e) {
      const t = e.target.closest("[data-star]");
      if (!t) return;
      const link = document.querySelector('a[data-star-link="' + t.getAttribute("data-star") + '"]');
      if (link) showStar(link.href);
    });
  }
  // Both layouts are on the page (the stylesheet shows one by the screen's width).
  document.querySelectorAll(".board svg, .column svg").forEach(starClicks);
})();
