// hp2ps's page: hover, legend, zoom, views and the band table over the chart.
//
// The chart is the SVG painter's picture, shown before this runs. This script reads the
// data (the JSON element "hp2ps-data", written by src/paint/html/data.rs) and, when the
// reader hides a band, zooms or changes the view, redraws into a copy of the picture laid
// over it, by the layout's own rules (DataScale in src/layout/chart.rs): drawn with every
// band and no zoom, the copy is the picture again, pixel for pixel. Going back to that
// state shows the picture itself, and the crosshair, the highlight and the readout live
// in layers of their own: the browser composites them over pictures it has already
// rasterised instead of drawing thousands of band vertices again (a 400 MB profile's
// page answers in a frame). Everything is per run (one chart, its legend, readout and
// table), so that a page can hold several runs.
//
// The script is these files one after the other (src/paint/html/mod.rs joins them into
// the page's one script element): this one makes the namespace `window.hp2ps` with the
// constants and the formatting every other part uses; run.js the Run and its state;
// draw.js the redrawing; pointer.js pointing, keys and zoom; controls.js the heading,
// toolbar and legend; table.js the band table; start.js reads the data and makes a Run
// per chart (`window.hp2ps.runs`, with `.data`, for user scripts and tests).
window.hp2ps = (function () {
  'use strict';
  const NS = 'http://www.w3.org/2000/svg';
  const PAGE = 432; // The border box's height: SVG's y is PAGE - the chart's y.
  const TICK = 4; // Length of an axis tick.
  const READOUT_ROWS = 25; // The readout lists at most this many bands.
  const TABLE_ROWS = 500; // The table shows this many rows until asked for all.
  const LINE_VIEW_WIDTH = 1.5;
  const SETTLE = 120; // What follows the pointer slowly waits for it to rest this long (ms).

  // ---- Numbers as the painters write them ----

  // A coordinate: at most 3 decimals, trailing zeros trimmed, no -0 (svg::number).
  function coord(x) {
    let s = fixed(x, 3);
    if (s.indexOf('.') >= 0) {
      let end = s.length;
      while (s.charCodeAt(end - 1) === 48) end--;
      if (s.charCodeAt(end - 1) === 46) end--;
      s = s.slice(0, end);
    }
    return s === '-0' ? '0' : s;
  }

  // x with d decimals, exact ties to even as Rust and glibc round (toFixed rounds them
  // up). A double is such a tie only if x * 2^(d+1) is an odd integer.
  function fixed(x, d) {
    const t = x * Math.pow(2, d + 1);
    if (Number.isInteger(t) && t % 2 !== 0) {
      const exact = x.toFixed(d + 1); // ends in 5
      const kept = exact.slice(0, -1);
      const last = kept.charCodeAt(kept.length - 1) - 48;
      if (last >= 0 && last <= 9 && last % 2 === 0) return d === 0 ? kept.slice(0, -1) : kept;
    }
    return x.toFixed(d);
  }

  // 1234567 -> "1,234,567" (hp2ps's thousands, and the readout's exact figures).
  function thousands(n) {
    const s = String(Math.abs(n));
    if (!/^\d+$/.test(s)) return String(n);
    return (n < 0 ? '-' : '') + s.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  }

  // hp2ps's 1-2-5 step (layout::round_step): powers of ten round down to half.
  function roundStep(y) {
    if (!(isFinite(y) && y > 0)) return y;
    let m = y;
    let up = 0;
    let down = 0;
    if (m > 10) { while (m > 10) { m /= 10; up++; } } else if (m < 1) { while (m < 1) { m *= 10; down++; } }
    let r = m > 4 ? 5 : m > 1 ? 2 : 1;
    for (let i = 0; i < up; i++) r *= 10;
    for (let i = 0; i < down; i++) r /= 10;
    return r;
  }

  // A value for people: exact, and in KiB/MiB/GiB when the unit is bytes.
  function readable(v, unit) {
    const exact = Number.isInteger(v) ? thousands(v) : String(+v.toPrecision(6));
    if (unit === 'bytes' && Math.abs(v) >= 1024) {
      const units = ['KiB', 'MiB', 'GiB', 'TiB'];
      let x = v / 1024;
      let u = 0;
      while (Math.abs(x) >= 1024 && u < units.length - 1) { x /= 1024; u++; }
      return [exact, x.toFixed(x < 10 ? 2 : 1) + ' ' + units[u]];
    }
    return [exact, ''];
  }

  function short(v, unit) {
    const [exact, units] = readable(v, unit);
    return units || exact + (unit ? ' ' + unit : '');
  }

  function seconds(t) {
    return String(+t.toPrecision(6));
  }

  function el(name, attrs, text, ns) {
    const e = ns ? document.createElementNS(ns, name) : document.createElement(name);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  const svgEl = (name, attrs) => el(name, attrs, undefined, NS);

  // `e` holding a band's name that wraps only after a '.', '/', ':' or space (a run of
  // them: '...', ' :: ' stay whole), never inside a word (nor after a '-'): unbreakable
  // spans (.w) with <wbr> between, as text, never markup.
  function breakable(e, text) {
    text.split(/(?<=[./: ])(?![./: ])/).forEach((part, i) => e.append(...(i ? [el('wbr')] : []), el('span', { class: 'w' }, part)));
    return e;
  }

  // A button that is on or off (aria-pressed); a click flips it and tells `changed`.
  function toggleButton(label, title, changed) {
    const b = el('button', { type: 'button', 'aria-pressed': 'false', title }, label);
    b.addEventListener('click', () => {
      const on = b.getAttribute('aria-pressed') !== 'true';
      b.setAttribute('aria-pressed', String(on));
      changed(on);
    });
    return b;
  }

  // A table's column header that sorts by it: a button, and aria-sort set by `sorted`.
  function sortHeader(label, title, num, click) {
    const th = el('th', { scope: 'col', title, class: num ? 'num' : '' });
    const b = el('button', { type: 'button' }, label);
    b.addEventListener('click', click);
    th.appendChild(b);
    return th;
  }

  const sorted = (th, dir) => th.setAttribute('aria-sort', dir ? (dir > 0 ? 'ascending' : 'descending') : 'none');

  // The order of two rows by their numbers x and y (or strings), in direction d: rows
  // without a number last, ties by `tie`.
  function order(x, y, d, tie) {
    if (x !== x || y !== y) return (x !== x) - (y !== y) || tie;
    return (x < y ? -1 : x > y ? 1 : 0) * d || tie;
  }


  const FATES = { drawn: 'drawn', other: 'in OTHER', trace: 'traces', dropped: 'dropped' };
  const FATE_TEXT = { drawn: 'drawn', other: 'in OTHER', trace: 'trace', dropped: 'dropped' };

  return {
    NS, PAGE, TICK, READOUT_ROWS, TABLE_ROWS, LINE_VIEW_WIDTH, SETTLE, FATES, FATE_TEXT, coord, fixed, thousands,
    roundStep, readable, short, seconds, el, svgEl, breakable, toggleButton, sortHeader, sorted, order,
  };
})();
