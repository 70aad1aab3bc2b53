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
// What the reader chose (the view, the window, hidden and added bands, the filter, the
// units) is the run's `state`, apart from its data: it lives in the URL's fragment
// (share.js), and new data can be put under it (Run.setData) without losing it.
//
// The script is these files one after the other (src/paint/html/mod.rs joins them into
// the page's one script element): this one makes the namespace `window.hp2ps` with the
// constants, the formatting and the names every other part uses; run.js the Run and its
// state; detail.js the finer samples of a zoomed window; draw.js the redrawing;
// heap.js the heap lines' panel and the peak on the axis; pointer.js pointing, the
// readout, keys and zoom; controls.js the header and toolbar; legend.js the legend and
// its filter; marks.js the marks; overview.js the strip of the whole run; table.js the
// band table; icicle.js the cost-centre icicle; compare.js several runs; share.js the
// URL's state and the exports; access.js the keyboard's tab stops, the skip links and
// the chart in words for screen readers; start.js reads the data and
// makes a Run per chart (`window.hp2ps.runs`, with `.data`, for user scripts and tests).
window.hp2ps = (function () {
  'use strict';
  const NS = 'http://www.w3.org/2000/svg';
  const PAGE = 432; // The border box's height: SVG's y is PAGE - the chart's y.
  const TICK = 4; // Length of an axis tick.
  const READOUT_ROWS = 12; // The readout lists at most this many bands.
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

  // 1234567 -> "1,234,567" (hp2ps's thousands, and the exact figures).
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

  // ---- Units: one system for the axis, the readout, the table and the icicle ----

  const BINARY = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  const DECIMAL = ['bytes', 'kB', 'MB', 'GB', 'TB'];
  const PREFIX = ['', 'k', 'M', 'G', 'T'];

  // The unit a value (or an axis step) of `raw` is counted in, as the layout counts
  // (layout/value_ticks.rs): [size, name]; null for hp2ps's axis labels.
  function unitFor(units, valueUnit, raw) {
    if (units === 'hp2ps') return null;
    const bytes = valueUnit === 'bytes';
    const base = units === 'binary' && bytes ? 1024 : 1000;
    const names = bytes ? (base === 1024 ? BINARY : DECIMAL) : PREFIX;
    let size = 1;
    let i = 0;
    while (i + 1 < names.length && raw >= size * base) { size *= base; i++; }
    let name = names[i];
    if (!bytes) name = i === 0 ? valueUnit : valueUnit ? names[i] + ' ' + valueUnit : names[i];
    return [size, name];
  }

  // An amount for people, in the page's units: "7.18 MiB", "42.6 MiB", "912 bytes"
  // (three figures; the exact value is in the element's title or data).
  function amount(v, valueUnit, units) {
    if (!isFinite(v)) return '–';
    const [size, name] = unitFor(units === 'hp2ps' ? 'decimal' : units, valueUnit, Math.abs(v));
    const x = v / size;
    const a = Math.abs(x);
    const text = size === 1 && Number.isInteger(v) ? thousands(v) : x.toFixed(a >= 100 ? 0 : a >= 10 ? 1 : 2);
    return name ? text + ' ' + (name === 'bytes' && size === 1 ? 'B' : name) : text;
  }

  // The exact figure, and the amount when it says something more.
  function readable(v, valueUnit, units) {
    const exact = Number.isInteger(v) ? thousands(v) : String(+v.toPrecision(6));
    const shown = amount(v, valueUnit, units);
    return [exact, shown];
  }

  function seconds(t) {
    return String(+t.toPrecision(6));
  }

  // A time for people: "0.15 s", "1 min 20 s" past a minute.
  function when(t, unit) {
    if (unit === 'seconds' && t >= 60) {
      const m = Math.floor(t / 60);
      return m + ' min ' + +(t - m * 60).toFixed(1) + ' s';
    }
    return seconds(t) + (unit === 'seconds' ? ' s' : unit ? ' ' + unit : '');
  }

  function el(name, attrs, text, ns) {
    const e = ns ? document.createElementNS(ns, name) : document.createElement(name);
    for (const k in attrs || {}) if (attrs[k] !== undefined && attrs[k] !== null) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  const svgEl = (name, attrs) => el(name, attrs, undefined, NS);

  // ---- Names people can read ----

  // Pieces of text that wrap only after a '.', '/', ':' or space (a run of them: '...',
  // ' :: ' stay whole), never inside a word (nor after a '-'): unbreakable spans (.w)
  // with <wbr> between, each of class `cls`.
  function pieces(text, cls) {
    const out = [];
    text.split(/(?<=[./: ])(?![./: ])/).forEach((part, i) => {
      if (i) out.push(el('wbr'));
      out.push(el('span', { class: cls ? 'w ' + cls : 'w' }, part));
    });
    return out;
  }

  // `e` holding a name that wraps as `pieces` says, as text, never markup.
  function breakable(e, text) {
    e.append(...pieces(text));
    return e;
  }

  // `e` holding a band's name, its text unchanged, its parts told apart: the stack
  // number a .hp puts in front ("(296)") and the " #2" an eventlog adds to stacks that
  // -L cut to one name, muted; of a cost-centre stack (innermost first, '/' between) its
  // innermost cost centre in bold and its callers muted; of a qualified name
  // ("ghc:GHC.Types.Var", "Data.Map.Internal.Bin") the last part in bold.
  function bandName(e, name) {
    let rest = name;
    const num = /^\(\d+\)/.exec(rest);
    if (num) { e.appendChild(el('span', { class: 'nm-num' }, num[0])); rest = rest.slice(num[0].length); }
    const suffix = / #\d+$/.exec(rest);
    if (suffix) rest = rest.slice(0, suffix.index);
    // A name -L cut ends in "...": the cut stays with the part it cut.
    const cut = /\.\.\.$/.test(rest) && rest.length > 3 ? '...' : '';
    if (cut) rest = rest.slice(0, -3);
    let [head, key, tail] = ['', rest, ''];
    if (rest.indexOf('/') > 0) {
      key = rest.slice(0, rest.indexOf('/'));
      tail = rest.slice(key.length);
    } else if (!/\s/.test(rest)) {
      // A qualified name: its qualifiers are words each ending in '.' or ':', its last
      // part anything after them (an operator, "(:)", "(,)", "++", is whole).
      const m = /^((?:[\w'][\w'-]*[.:])+)(.+)$/.exec(rest);
      if (m) [head, key] = [m[1], m[2]];
    } else [head, key] = [rest, ''];
    if (head) e.append(...pieces(head, /\s/.test(rest) ? '' : 'nm-dim'));
    if (key) e.append(...pieces(key + (tail ? '' : cut), 'nm-key'));
    if (tail) e.append(...pieces(tail + cut, 'nm-dim'));
    if (suffix) {
      e.appendChild(el('span', { class: 'nm-suffix', title: 'One of the stacks that -L cut to this name: the eventlog numbers them #1, #2, …' }, suffix[0]));
    }
    return e;
  }

  // A name in at most n characters, keeping what tells it apart: a cost-centre stack its
  // innermost cost centres (the start), a qualified name its last parts (the end,
  // without the package), anything else its start and end.
  function shortName(name, n) {
    const c = [...name];
    if (c.length <= n) return name;
    if (name.indexOf('/') > 0) return c.slice(0, n - 1).join('') + '…';
    if (!/\s/.test(name) && /[.:]/.test(name)) {
      const bare = [...name.replace(/^[^:]*:/, '')];
      return bare.length <= n ? bare.join('') : '…' + bare.slice(bare.length - n + 1).join('');
    }
    return elide(name, n);
  }

  // A name cut to n characters by losing its middle (the whole name goes in a title).
  function elide(name, n) {
    const c = [...name];
    if (c.length <= n) return name;
    const keep = n - 1;
    return c.slice(0, Math.ceil(keep / 2)).join('') + '…' + c.slice(c.length - Math.floor(keep / 2)).join('');
  }

  // ---- Controls ----

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

  // Buttons of which one is pressed: [value, label, title] each, of class `cls`;
  // `chose` hears a click.
  function segmented(label, options, chose, cls) {
    const g = el('div', { class: 'group seg', role: 'group', 'aria-label': label });
    const buttons = {};
    for (const [value, text, title] of options) {
      const b = el('button', { type: 'button', class: cls, title, 'aria-pressed': 'false', 'data-value': value }, text);
      b.addEventListener('click', () => chose(value));
      buttons[value] = b;
      g.appendChild(b);
    }
    g.set = (value) => { for (const v in buttons) buttons[v].setAttribute('aria-pressed', String(v === value)); };
    g.buttons = buttons;
    return g;
  }

  // A table's column header that sorts by it: a button, and aria-sort set by `sorted`.
  // The label is the header's data-label too, which print shows in the button's place:
  // Chromium leaves a button's text out of the header it repeats atop each printed page.
  function sortHeader(label, title, num, click) {
    const th = el('th', { scope: 'col', title, class: num ? 'num' : '', 'data-label': label });
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

  // ---- The colour scheme: the reader's, or the one the toggle chose ----

  function dark() {
    const t = document.documentElement.dataset.theme;
    if (t) return t === 'dark';
    return !!(window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches);
  }

  const FATES = { drawn: 'drawn', other: 'in OTHER', trace: 'traces', dropped: 'dropped' };
  const FATE_TEXT = { drawn: 'drawn', other: 'in OTHER', trace: 'trace', dropped: 'dropped' };

  // The kinds of heap profile, by the RTS flag that makes them.
  const KINDS = {
    '-hc': 'cost-centre stacks', '-hm': 'modules', '-hd': 'closure descriptions', '-hy': 'types',
    '-hr': 'retainer sets', '-hb': 'biographies', '-hT': 'closure types', '-hi': 'info tables', '-he': 'eras',
  };

  return {
    NS, PAGE, TICK, READOUT_ROWS, TABLE_ROWS, LINE_VIEW_WIDTH, SETTLE, FATES, FATE_TEXT, KINDS, coord, fixed,
    thousands, roundStep, unitFor, amount, readable, seconds, when, el, svgEl, pieces, breakable, bandName, elide, shortName,
    toggleButton, segmented, sortHeader, sorted, order, dark,
  };
})();
