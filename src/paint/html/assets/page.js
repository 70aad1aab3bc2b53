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
'use strict';
(function () {
  const NS = 'http://www.w3.org/2000/svg';
  const PAGE = 432; // The border box's height: SVG's y is PAGE - the chart's y.
  const TICK = 4; // Length of an axis tick.
  const BORDER_SPACE = 5;
  const READOUT_ROWS = 25; // The readout lists at most this many bands.
  const TABLE_ROWS = 500; // The table shows this many rows until asked for all.
  const LINE_VIEW_WIDTH = 1.5;

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

  function el(name, attrs, text) {
    const e = document.createElement(name);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function svgEl(name, attrs) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    return e;
  }

  // ---- One run: a chart with its legend, readout and table ----

  function Run(d, section, index, font) {
    this.d = d;
    this.font = font;
    this.index = index;
    this.section = section;
    const s = d.scale;
    this.s = s;
    this.times = Float64Array.from(d.times);
    this.bands = d.bands.map((b, k) => ({
      name: b.name, colour: b.colour, pattern: b.pattern, row: b.row,
      values: Float64Array.from(d.values[k] || []), k,
    }));
    this.lines = d.lines.map((l, k) => ({ ...l, k }));
    this.state = {
      hidden: new Set(), linesHidden: new Set(), filter: null, window: null,
      view: 'stacked', fitY: false, hot: null, picked: null, pickedRow: null, at: null,
    };
    this.figure = section.querySelector('figure.chart');
    this.picture = this.figure.querySelector('svg');
    this.picture.classList.add('picture', 'on');
    this.readout = section.querySelector('.readout');
    this.table = section.querySelector('table.bands');
    if (index === 0) {
      this.figure.id = 'chart';
      this.readout.id = 'readout';
      this.table.id = 'bands';
      section.querySelector('.legend').id = 'legend';
    }
    // The readout states what the bands' tooltips said.
    this.picture.querySelectorAll('g.bands title').forEach((t) => t.remove());
    this.shown = this.picture;
    this.prepareOverlay();
    this.buildHeading();
    this.buildToolbar();
    this.buildLegend();
    this.buildTable();
    this.listen();
  }

  const R = Run.prototype;

  // The overlay: an SVG on top of the pictures, in a layer of its own, holding the marks'
  // lines, the highlight (a veil over the graph and a copy of the band), the crosshair,
  // the zoom selection, and a transparent target for the pointer.
  R.prepareOverlay = function () {
    const s = this.s;
    const o = svgEl('svg', { class: 'overlay', viewBox: '0 0 648 ' + PAGE, 'aria-hidden': 'true' });
    this.overlay = o;
    this.defs = svgEl('defs');
    const clip = svgEl('clipPath', { id: 'hp2ps-clip-' + this.index });
    const graph = {
      x: coord(s.x0), y: coord(PAGE - s.y0 - s.height), width: coord(s.width), height: coord(s.height),
    };
    clip.appendChild(svgEl('rect', graph));
    this.defs.appendChild(clip);
    this.markLines = svgEl('g', { stroke: '#777', 'stroke-width': '0.5', 'stroke-dasharray': '2 2' });
    this.veil = svgEl('rect', { ...graph, fill: '#fff', 'fill-opacity': '0.6', visibility: 'hidden' });
    this.hot = svgEl('g', { stroke: '#000', 'stroke-width': '0.5' });
    this.cross = svgEl('line', { stroke: '#d00', 'stroke-width': '0.75', visibility: 'hidden' });
    this.selection = svgEl('rect', { fill: 'rgba(31,95,191,.18)', stroke: '#1f5fbf', 'stroke-width': '0.5', visibility: 'hidden' });
    this.hit = svgEl('rect', { ...graph, class: 'hit', fill: 'transparent' });
    o.append(this.defs, this.markLines, this.veil, this.hot, this.cross, this.selection, this.hit);
    this.figure.insertBefore(o, this.readout);
    this.drawMarkLines();
  };

  // The copy of the picture the script draws into, made when first needed: its lines and
  // marks moved into groups of their own (the picture does not change).
  R.canvas = function () {
    if (this.copy) return this.copy;
    const svg = this.picture.cloneNode(true);
    svg.classList.remove('picture', 'on');
    svg.classList.add('redrawn');
    svg.setAttribute('aria-hidden', 'true');
    const page = svg.querySelector('g.page');
    const bands = page.querySelector('g.bands');
    const lines = svgEl('g', { class: 'lines' });
    page.querySelectorAll('.series').forEach((e) => lines.appendChild(e));
    page.insertBefore(lines, bands.nextSibling);
    const marks = svgEl('g', { class: 'marks' });
    page.querySelectorAll('.mark').forEach((e) => marks.appendChild(e));
    page.appendChild(marks);
    const defs = svgEl('defs');
    svg.insertBefore(defs, svg.firstChild);
    this.figure.insertBefore(svg, this.overlay);
    this.copy = { svg, page, bands, lines, marks, defs, yLegend: page.querySelector('.yl') };
    return this.copy;
  };

  // Whether the state is the picture's: every band, the whole run, stacked.
  R.pristine = function () {
    const st = this.state;
    return !st.window && st.hidden.size === 0 && !st.filter && st.view === 'stacked' && !st.fitY &&
      st.linesHidden.size === 0;
  };

  // Shows the picture or the copy.
  R.show = function (svg) {
    if (this.shown === svg) return;
    this.shown.classList.remove('on');
    svg.classList.add('on');
    this.shown = svg;
  };

  // ---- The picture ----

  // The time window shown: [from, to] and the x of a time in it.
  R.span = function () {
    const s = this.s;
    return this.state.window || [s.t0, s.t0 + s.tSpan];
  };

  R.xOf = function (t) {
    const s = this.s;
    const [a, b] = this.span();
    return ((t - a) / (b - a)) * s.width + s.x0;
  };

  R.visible = function () {
    const st = this.state;
    return this.bands.filter((b) => !st.hidden.has(b.k) && this.matches(b.name));
  };

  R.matches = function (name) {
    const f = this.state.filter;
    if (!f) return true;
    return f instanceof RegExp ? f.test(name) : name.toLowerCase().indexOf(f) >= 0;
  };

  // The samples drawn: those in the window and one beyond each end.
  R.range = function () {
    const n = this.times.length;
    if (!this.state.window) return [0, n - 1];
    const [a, b] = this.state.window;
    let i0 = this.search(a);
    if (i0 > 0 && this.times[i0] > a) i0--;
    let i1 = this.search(b);
    if (i1 < n - 1 && this.times[i1] < b) i1++;
    return [Math.max(0, i0), Math.min(n - 1, i1)];
  };

  // The first sample at or after t (n - 1 if none).
  R.search = function (t) {
    const ts = this.times;
    let lo = 0;
    let hi = ts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ts[mid] < t) lo = mid + 1; else hi = mid;
    }
    return lo;
  };

  // What a band's value at sample i is in the current view.
  R.valueIn = function (band, i, totals) {
    const v = band.values[i];
    if (this.state.view !== 'normal') return v;
    return totals[i] > 0 ? (v / totals[i]) * 100 : 0;
  };

  R.totals = function (visible) {
    const n = this.times.length;
    const t = new Float64Array(n);
    for (const b of visible) for (let i = 0; i < n; i++) t[i] += b.values[i];
    return t;
  };

  // The value at the top of the graph: the layout's, or what the visible data needs.
  R.vSpan = function (visible, totals) {
    const st = this.state;
    if (st.view === 'normal') return 100;
    if (!st.fitY) return this.s.vSpan;
    const [i0, i1] = this.range();
    let top = 0;
    for (let i = i0; i <= i1; i++) {
      if (st.view === 'lines') {
        for (const b of visible) if (b.values[i] > top) top = b.values[i];
      } else if (totals[i] > top) top = totals[i];
    }
    if (st.view === 'lines' || st.view === 'stacked') {
      for (const l of this.lines) {
        if (st.linesHidden.has(l.k)) continue;
        for (let i = 0; i < l.t.length; i++) if (this.inWindow(l.t[i]) && l.v[i] > top) top = l.v[i];
      }
    }
    return top === 0 ? 1 : top;
  };

  R.inWindow = function (t) {
    const [a, b] = this.span();
    return t >= a && t <= b;
  };

  // Shows the current state: the picture when it is the picture's, else the copy,
  // redrawn (`force`: redrawn even then, to check that it is the picture).
  R.redraw = function (force) {
    const st = this.state;
    const s = this.s;
    const visible = this.visible();
    const shown = new Set(visible.map((b) => b.k));
    const totals = this.totals(visible);
    const vSpan = this.vSpan(visible, totals);
    this.current = { vSpan, totals, visible };
    this.drawMarkLines();
    this.updateToolbar();
    if (this.pristine() && !force) {
      this.show(this.picture);
      this.applyHighlight();
      return;
    }
    const c = this.canvas();
    const scale = s.height / vSpan;
    const [i0, i1] = this.range();
    const xs = [];
    for (let i = i0; i <= i1; i++) xs.push(coord(this.xOf(this.times[i])));
    const groups = c.bands.children;
    // The stack, in the layout's arithmetic: prev += value * scale, top = prev + y0.
    const prev = new Float64Array(i1 - i0 + 1);
    let below = null;
    for (const band of this.bands) {
      const g = groups[band.k];
      if (!g) continue;
      if (!shown.has(band.k) || this.times.length === 0) { g.replaceChildren(); continue; }
      const top = [];
      for (let i = i0; i <= i1; i++) {
        const v = this.valueIn(band, i, totals);
        if (st.view === 'lines') top.push(coord(PAGE - (v * scale + s.y0)));
        else { prev[i - i0] += v * scale; top.push(coord(PAGE - (prev[i - i0] + s.y0))); }
      }
      g.replaceChildren(...this.bandShape(band, xs, top, below));
      if (st.view !== 'lines') below = top;
    }
    const clipped = st.window !== null || st.view !== 'stacked' || st.fitY;
    for (const layer of [c.bands, c.lines]) {
      if (clipped) layer.setAttribute('clip-path', 'url(#hp2ps-clip-' + this.index + ')');
      else layer.removeAttribute('clip-path');
    }
    this.drawLines(c, scale);
    this.drawMarks(c);
    this.drawTicks(c, vSpan);
    this.show(c.svg);
    this.applyHighlight();
  };

  // A band's elements: its outline as the painter draws it (band_outline: the first
  // bottom point, the bottom left to right, up at the right end, the top right to left),
  // filled; in the lines view, a line.
  R.bandShape = function (band, xs, top, below) {
    const n = xs.length;
    if (this.state.view === 'lines') {
      const pts = xs.map((x, i) => x + ',' + top[i]).join(' ');
      return [svgEl('polyline', {
        points: pts, stroke: band.pattern ? '#000' : band.colour,
        'stroke-width': LINE_VIEW_WIDTH, 'stroke-linejoin': 'round', fill: 'none',
      })];
    }
    const axis = coord(PAGE - this.s.y0);
    const bottom = (i) => (below ? below[i] : axis);
    const pts = [xs[0] + ',' + bottom(0)];
    for (let i = 0; i < n; i++) pts.push(xs[i] + ',' + bottom(i));
    pts.push(xs[n - 1] + ',' + top[n - 1]);
    for (let i = n - 1; i >= 0; i--) pts.push(xs[i] + ',' + top[i]);
    const points = pts.join(' ');
    if (!band.pattern) return [svgEl('polygon', { points, fill: band.colour })];
    // A pattern: the background, its ink as SVG patterns, and the outline on top.
    const parts = [svgEl('polygon', { points, fill: band.colour, stroke: 'none' })];
    for (const id of this.patternIds(band.pattern)) {
      parts.push(svgEl('polygon', { points, fill: 'url(#' + id + ')', stroke: 'none' }));
    }
    parts.push(svgEl('polygon', { points }));
    return parts;
  };

  // SVG patterns for a print pattern's hatches and dots, anchored at the chart's origin
  // as the painters anchor them (paint/hatch.rs).
  R.patternIds = function (p) {
    const ids = [];
    const make = (key, build) => {
      const id = 'hp2ps-p' + this.index + '-' + key.replace(/[^0-9a-z]/gi, '_');
      if (!document.getElementById(id)) this.defs.appendChild(build(id));
      ids.push(id);
    };
    for (const [angle, spacing, width] of p.hatches) {
      make('h' + angle + '_' + spacing + '_' + width, (id) => {
        const pat = svgEl('pattern', {
          id, patternUnits: 'userSpaceOnUse', width: 10, height: spacing,
          patternTransform: 'translate(0 ' + PAGE + ') rotate(' + -angle + ')',
        });
        for (const y of [0, spacing]) {
          pat.appendChild(svgEl('line', { x1: -1, x2: 11, y1: y, y2: y, stroke: '#000', 'stroke-width': width }));
        }
        return pat;
      });
    }
    if (p.dots) {
      const [spacing, side] = p.dots;
      make('d' + spacing + '_' + side, (id) => {
        const pat = svgEl('pattern', {
          id, patternUnits: 'userSpaceOnUse', width: spacing, height: 2 * spacing,
          patternTransform: 'translate(0 ' + PAGE + ')',
        });
        for (const [x, y] of [[0, 0], [spacing, 0], [spacing / 2, spacing], [0, 2 * spacing], [spacing, 2 * spacing]]) {
          pat.appendChild(svgEl('rect', { x: x - side / 2, y: y - side / 2, width: side, height: side, fill: '#000', stroke: 'none' }));
        }
        return pat;
      });
    }
    return ids;
  };

  // The lines over the bands (heap size, live bytes), as the painter strokes them.
  R.drawLines = function (c, scale) {
    const st = this.state;
    const s = this.s;
    c.lines.replaceChildren();
    if (st.view === 'normal') return;
    for (const l of this.lines) {
      if (st.linesHidden.has(l.k)) continue;
      const [a, b] = this.span();
      const pts = [];
      for (let i = 0; i < l.t.length; i++) {
        const near = (i + 1 < l.t.length && l.t[i + 1] >= a) && (i === 0 || l.t[i - 1] <= b);
        if (!this.state.window || near || this.inWindow(l.t[i])) {
          pts.push(coord(this.xOf(l.t[i])) + ',' + coord(PAGE - (l.v[i] * scale + s.y0)));
        }
      }
      if (pts.length < 2) continue;
      const attrs = {
        class: 'series', points: pts.join(' '), stroke: l.colour, 'stroke-width': coord(l.width),
        'stroke-linejoin': 'round',
      };
      if (l.dash) attrs['stroke-dasharray'] = coord(l.dash[0]) + ' ' + coord(l.dash[1]);
      const line = svgEl('polyline', attrs);
      const title = svgEl('title');
      title.textContent = l.tooltip;
      line.appendChild(title);
      c.lines.appendChild(line);
    }
  };

  // The marks' carets below the x axis (geometry::caret), where the window has them.
  R.drawMarks = function (c) {
    const m = this.d.marks;
    const y = coord(PAGE - this.s.y0);
    const low = coord(PAGE - this.s.y0 + 4);
    c.marks.replaceChildren();
    for (let i = 0; i < m.t.length; i++) {
      if (!this.inWindow(m.t[i])) continue;
      const x = this.xOf(m.t[i]);
      const caret = svgEl('polygon', {
        class: 'mark', fill: '#fff',
        points: coord(x - 4) + ',' + y + ' ' + coord(x) + ',' + low + ' ' + coord(x + 4) + ',' + y,
      });
      if (m.text[i]) {
        const title = svgEl('title');
        title.textContent = m.text[i];
        caret.appendChild(title);
      }
      c.marks.appendChild(caret);
    }
  };

  // A mark is also a line across the graph; its text shows in the readout.
  R.drawMarkLines = function () {
    const m = this.d.marks;
    const s = this.s;
    this.markLines.replaceChildren();
    for (let i = 0; i < m.t.length; i++) {
      if (!this.inWindow(m.t[i])) continue;
      const x = coord(this.xOf(m.t[i]));
      this.markLines.appendChild(svgEl('line', {
        x1: x, x2: x, y1: coord(PAGE - s.y0), y2: coord(PAGE - s.y0 - s.height),
      }));
    }
  };

  // The ticks and their labels, by the layout's rules (DataScale): for the whole run
  // from the first sample, before the last; zoomed, at whole steps inside the window,
  // with as many decimals as the step needs.
  R.drawTicks = function (c, vSpan) {
    const s = this.s;
    c.page.querySelectorAll('.xt, .yt').forEach((e) => e.remove());
    const made = [];
    const [a, b] = this.span();
    const width = b - a;
    const xStep = roundStep(width / s.ticks);
    const tick = (cls, from, to, label, at, anchor) => {
      made.push(svgEl('polyline', { class: cls, points: coord(from[0]) + ',' + coord(PAGE - from[1]) + ' ' + coord(to[0]) + ',' + coord(PAGE - to[1]) }));
      const text = this.text(label, at, anchor);
      text.setAttribute('class', cls);
      made.push(text);
    };
    const xTick = (t, decimals) => {
      const px = (t - a) * (s.width / width);
      if (px < s.xRoom) {
        const at = s.x0 + px;
        tick('xt', [at, s.y0], [at, s.y0 - TICK], fixed(t, decimals), [at, s.xLabelY], 'middle');
      }
    };
    if (!this.state.window) {
      for (let t = a; t < s.tEnd;) {
        xTick(t, 1);
        const next = t + xStep;
        if (next <= t) break;
        t = next;
      }
    } else if (xStep > 0 && isFinite(xStep)) {
      const decimals = Math.max(1, Math.ceil(-Math.log10(xStep) - 1e-9));
      for (let k = Math.ceil(a / xStep - 1e-9); k * xStep <= b && made.length < 400; k++) xTick(k * xStep, decimals);
    }
    const yStep = roundStep(Math.max(vSpan / s.ticks, 1));
    const [divisor, suffix] = yStep >= 1e6 ? [1e6, 'M'] : yStep >= 1e3 ? [1e3, 'k'] : [1, ''];
    for (let v = 0; v <= vSpan;) {
      const py = v * (s.height / vSpan);
      if (py < s.yRoom) {
        const at = s.y0 + py;
        const label = thousands(Math.trunc(v / divisor + 0.5)) + suffix;
        tick('yt', [s.x0, at], [s.x0 - TICK, at], label, [s.yLabelX, at], 'end');
      }
      const next = v + yStep;
      if (next <= v) break;
      v = next;
    }
    c.page.insertBefore(this.fragment(made), c.bands);
    this.drawYLegend(c);
  };

  R.fragment = function (nodes) {
    const f = document.createDocumentFragment();
    f.append(...nodes);
    return f;
  };

  // The y legend says what the axis shows: the painter's VALUE_UNIT, or percent.
  R.drawYLegend = function (c) {
    const old = c.page.querySelector('.yl-view');
    if (old) old.remove();
    if (!c.yLegend) return;
    if (this.state.view !== 'normal') {
      c.yLegend.removeAttribute('visibility');
      return;
    }
    c.yLegend.setAttribute('visibility', 'hidden');
    const s = this.s;
    const text = this.text('% of the total', [0, 0], 'end');
    text.setAttribute('class', 'yl-view');
    text.setAttribute('transform', 'translate(' + coord(s.yLabelX) + ' ' + coord(PAGE - s.y0 - s.height) + ') rotate(-90)');
    text.removeAttribute('y');
    c.page.insertBefore(text, c.bands);
  };

  // A 10 pt label as the SVG painter writes it: each glyph at the x where PostScript's
  // `show` puts it (Helvetica advances), aligned as `stringwidth` aligns it.
  R.text = function (label, at, anchor) {
    const size = 10;
    const em = size / 1000;
    const f = this.font;
    const widths = [];
    for (const c of label) {
      const w = f.widths[c.charCodeAt(0) - f.firstCode];
      if (c.length !== 1 || w === undefined) { widths.length = 0; break; }
      widths.push(w);
    }
    const e = svgEl('text', { stroke: 'none', fill: '#000', 'font-size': coord(size) });
    e.setAttributeNS('http://www.w3.org/XML/1998/namespace', 'xml:space', 'preserve');
    e.setAttribute('y', coord(PAGE - at[1]));
    if (widths.length !== label.length || label.length === 0) {
      if (anchor !== 'start') e.setAttribute('text-anchor', anchor);
      e.setAttribute('x', coord(at[0]));
      e.textContent = label;
      return e;
    }
    const total = widths.reduce((x, y) => x + y, 0);
    const start = anchor === 'middle' ? at[0] - (total * em) / 2 : anchor === 'end' ? at[0] - total * em : at[0];
    let advanced = 0;
    [...label].forEach((c, i) => {
      const x = start + advanced * em;
      advanced += widths[i];
      if (i === 0) { e.setAttribute('x', coord(x)); e.appendChild(document.createTextNode(c)); } else {
        const span = svgEl('tspan', { x: coord(x) });
        span.textContent = c;
        e.appendChild(span);
      }
    });
    return e;
  };

  // ---- Pointing ----

  R.listen = function () {
    const hit = this.hit;
    let drag = null;
    hit.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      hit.setPointerCapture(e.pointerId);
      drag = { from: this.toChart(e), client: e.clientX };
    });
    hit.addEventListener('pointermove', (e) => {
      const p = this.toChart(e);
      if (drag) this.select(drag.from[0], p[0]);
      this.hover(p[0], p[1]);
    });
    hit.addEventListener('pointerup', (e) => {
      if (!drag) return;
      const p = this.toChart(e);
      const moved = Math.abs(e.clientX - drag.client) >= 3;
      const from = drag.from[0];
      drag = null;
      this.selection.setAttribute('visibility', 'hidden');
      if (moved) this.zoomTo(this.timeAt(from), this.timeAt(p[0]));
    });
    hit.addEventListener('pointerleave', () => { if (!drag) this.leave(); });
    hit.addEventListener('dblclick', () => this.zoomTo(null));
    this.figure.addEventListener('keydown', (e) => this.key(e));
    this.figure.addEventListener('blur', () => this.leave());
  };

  // A pointer's place in chart points (y upwards).
  R.toChart = function (e) {
    const m = this.overlay.getScreenCTM();
    if (!m) return [0, 0];
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    return [p.x, PAGE - p.y];
  };

  R.timeAt = function (x) {
    const s = this.s;
    const [a, b] = this.span();
    const f = Math.min(1, Math.max(0, (x - s.x0) / s.width));
    return a + f * (b - a);
  };

  R.select = function (x0, x1) {
    const s = this.s;
    const lo = Math.max(s.x0, Math.min(x0, x1));
    const hi = Math.min(s.x0 + s.width, Math.max(x0, x1));
    this.selection.setAttribute('x', coord(lo));
    this.selection.setAttribute('width', coord(Math.max(0, hi - lo)));
    this.selection.setAttribute('y', coord(PAGE - s.y0 - s.height));
    this.selection.setAttribute('height', coord(s.height));
    this.selection.setAttribute('visibility', 'visible');
  };

  // The nearest sample to x, the band under (x, y), the crosshair and the readout.
  R.hover = function (x, y) {
    if (this.times.length === 0) return;
    const t = this.timeAt(x);
    const [i0, i1] = this.range();
    let i = this.search(t);
    if (i > 0 && Math.abs(this.times[i - 1] - t) <= Math.abs(this.times[i] - t)) i--;
    i = Math.min(i1, Math.max(i0, i));
    this.point(i, this.bandAt(t, y));
    this.placeReadout(x, y);
  };

  // Which visible band is under the point at time t and height y (chart points).
  R.bandAt = function (t, y) {
    const cur = this.current || this.measure();
    const s = this.s;
    const v = (y - s.y0) / (s.height / cur.vSpan);
    if (v < 0 || y > s.y0 + s.height) return null;
    const ts = this.times;
    let j = Math.max(0, this.search(t) - 1);
    if (j + 1 < ts.length && ts[j + 1] <= t) j++;
    const k = Math.min(ts.length - 1, j + 1);
    const f = ts[k] > ts[j] ? Math.min(1, Math.max(0, (t - ts[j]) / (ts[k] - ts[j]))) : 0;
    const at = (b, i) => this.valueIn(b, i, cur.totals);
    if (this.state.view === 'lines') {
      let best = null;
      let dist = 6 / (s.height / cur.vSpan);
      for (const b of cur.visible) {
        const d = Math.abs(at(b, j) + (at(b, k) - at(b, j)) * f - v);
        if (d < dist) { dist = d; best = b.k; }
      }
      return best;
    }
    let sum = 0;
    for (const b of cur.visible) {
      sum += at(b, j) + (at(b, k) - at(b, j)) * f;
      if (v < sum) return b.k;
    }
    return null;
  };

  // The state of the picture as the painter drew it, before any redraw.
  R.measure = function () {
    const visible = this.visible();
    const totals = this.totals(visible);
    this.current = { visible, totals, vSpan: this.vSpan(visible, totals) };
    return this.current;
  };

  // Shows sample i: the crosshair and the readout; `hot` is the band to highlight.
  R.point = function (i, hot) {
    const s = this.s;
    const x = coord(this.xOf(this.times[i]));
    this.cross.setAttribute('x1', x);
    this.cross.setAttribute('x2', x);
    this.cross.setAttribute('y1', coord(PAGE - s.y0));
    this.cross.setAttribute('y2', coord(PAGE - s.y0 - s.height));
    this.cross.setAttribute('visibility', 'visible');
    const changed = this.state.at !== i || this.state.hot !== hot;
    this.state.at = i;
    if (this.state.hot !== hot) { this.state.hot = hot; this.applyHighlight(); }
    if (changed || this.readout.hidden) this.fillReadout(i);
    this.readout.hidden = false;
  };

  R.leave = function () {
    this.cross.setAttribute('visibility', 'hidden');
    this.readout.hidden = true;
    this.state.at = null;
    if (this.state.hot !== null) { this.state.hot = null; this.applyHighlight(); }
  };

  // The time, every visible band's value (top band first, at most READOUT_ROWS of them,
  // the largest), the total, and the marks near the time.
  R.fillReadout = function (i) {
    const d = this.d;
    const t = this.times[i];
    const cur = this.current || this.measure();
    const unit = d.valueUnit;
    const head = el('div', { class: 'when', 'data-time': String(t) },
      seconds(t) + ' ' + d.sampleUnit);
    const count = el('span', { class: 'more' }, ' · sample ' + (i + 1) + ' of ' + this.times.length + ' drawn');
    head.appendChild(count);
    const rows = cur.visible.slice().reverse();
    let shown = rows;
    if (rows.length > READOUT_ROWS) {
      const keep = new Set(rows.slice().sort((a, b) => b.values[i] - a.values[i]).slice(0, READOUT_ROWS));
      shown = rows.filter((b) => keep.has(b));
    }
    const body = el('tbody');
    let total = 0;
    for (const b of rows) total += b.values[i];
    for (const b of shown) {
      const [exact, units] = readable(b.values[i], unit);
      const tr = el('tr', { 'data-name': b.name, class: b.k === this.state.hot ? 'hot' : '' });
      const sw = el('td');
      sw.appendChild(this.swatch(b));
      tr.append(sw, el('td', { class: 'n', title: b.name }, b.name),
        el('td', { class: 'v', 'data-value': String(b.values[i]) }, exact), el('td', { class: 'r' }, units));
      body.appendChild(tr);
    }
    const [exact, units] = readable(total, unit);
    const foot = el('tfoot');
    const tr = el('tr', { class: 'total' });
    tr.append(el('td'), el('td', {}, 'total' + (unit ? ' (' + unit + ')' : '')),
      el('td', { class: 'v', 'data-value': String(total) }, exact), el('td', { class: 'r' }, units));
    foot.appendChild(tr);
    const table = el('table');
    table.append(body, foot);
    const parts = [head, table];
    if (shown.length < rows.length) parts.push(el('div', { class: 'more' }, (rows.length - shown.length) + ' smaller bands not listed'));
    for (const l of this.lines) {
      if (this.state.linesHidden.has(l.k) || this.state.view === 'normal') continue;
      const v = this.lineAt(l, t);
      if (v !== null) parts.push(el('div', { class: 'mark' }, l.name + ': ' + short(v, unit)));
    }
    const m = d.marks;
    const near = (this.span()[1] - this.span()[0]) * (6 / this.s.width);
    for (let k = 0; k < m.t.length; k++) {
      if (Math.abs(m.t[k] - t) <= near) {
        parts.push(el('div', { class: 'mark' }, 'mark at ' + seconds(m.t[k]) + ' ' + d.sampleUnit + (m.text[k] ? ': ' + m.text[k] : '')));
      }
    }
    this.readout.replaceChildren(...parts);
  };

  // A line's value at time t: its last point at or before t.
  R.lineAt = function (l, t) {
    let v = null;
    for (let i = 0; i < l.t.length && l.t[i] <= t; i++) v = l.v[i];
    return v;
  };

  // The readout beside the pointer, inside the figure.
  R.placeReadout = function (x, y) {
    const s = this.s;
    const box = this.figure.getBoundingClientRect();
    const k = box.width / 648;
    const px = x * k;
    const py = (PAGE - y) * k;
    const w = this.readout.offsetWidth;
    const h = this.readout.offsetHeight;
    const left = px + 16 + w > box.width ? Math.max(0, px - 16 - w) : px + 16;
    const top = Math.min(Math.max(0, py - h / 2), Math.max(0, (PAGE - s.y0) * k - h));
    this.readout.style.transform = 'translate(' + Math.round(left) + 'px, ' + Math.round(top) + 'px)';
  };

  // The highlighted band (the one pointed at, else the one picked in the table): a veil
  // over the graph with a copy of the band on top, in the overlay; its legend entry and
  // readout row marked.
  R.applyHighlight = function () {
    const k = this.state.hot !== null ? this.state.hot : this.state.picked;
    const group = k === null ? null : this.shown.querySelector('g.bands').children[k];
    const drawn = group && group.childElementCount > 0;
    this.hot.replaceChildren(...(drawn ? [group.cloneNode(true)] : []));
    if (this.state.window || this.state.view !== 'stacked') this.hot.setAttribute('clip-path', 'url(#hp2ps-clip-' + this.index + ')');
    else this.hot.removeAttribute('clip-path');
    this.veil.setAttribute('visibility', drawn ? 'visible' : 'hidden');
    for (const li of this.legendItems || []) li.classList.toggle('hot', li.bandIndex === k);
    for (const tr of this.readout.querySelectorAll('tr[data-name]')) {
      tr.classList.toggle('hot', k !== null && tr.getAttribute('data-name') === this.bands[k].name);
    }
  };

  // ---- Keys ----

  R.key = function (e) {
    const st = this.state;
    const n = this.times.length;
    if (n === 0) return;
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      const dir = e.key === 'ArrowLeft' ? -1 : 1;
      if (st.window && !e.shiftKey) this.pan(dir);
      else {
        const [i0, i1] = this.range();
        const i = st.at === null ? (dir > 0 ? i0 : i1) : Math.min(i1, Math.max(i0, st.at + dir));
        this.point(i, st.hot);
        this.placeReadout(this.xOf(this.times[i]), this.s.y0 + this.s.height * 0.75);
      }
    } else if (e.key === '+' || e.key === '=' || e.key === '-') {
      const [a, b] = this.span();
      const c = (a + b) / 2;
      const half = ((b - a) / 2) * (e.key === '-' ? 2 : 0.5);
      this.zoomTo(c - half, c + half);
    } else if (e.key === 'Escape' || e.key === 'Home') {
      this.zoomTo(null);
      this.leave();
    } else return;
    e.preventDefault();
  };

  // ---- Zoom ----

  // Shows [a, b] (null: the whole run), within the run's time span.
  R.zoomTo = function (a, b) {
    const s = this.s;
    const [lo, hi] = [s.t0, s.t0 + s.tSpan];
    let win = null;
    if (a !== null) {
      let from = Math.max(lo, Math.min(a, b));
      let to = Math.min(hi, Math.max(a, b));
      if (!(to - from > s.tSpan * 1e-9)) return;
      if (from <= lo && to >= hi) win = null; else win = [from, to];
    }
    this.state.window = win;
    this.leave();
    this.redraw();
  };

  // Moves the window by a tenth of its width.
  R.pan = function (dir) {
    const s = this.s;
    const [a, b] = this.span();
    const w = b - a;
    let from = a + dir * w * 0.1;
    from = Math.max(s.t0, Math.min(from, s.t0 + s.tSpan - w));
    this.state.window = [from, from + w];
    this.redraw();
  };

  // ---- Heading and toolbar ----

  // The file, what was drawn of it, and how to use the chart.
  R.buildHeading = function () {
    const d = this.d;
    const head = this.section.querySelector('.run-head');
    const fates = {};
    for (const f of d.table.fate) fates[f] = (fates[f] || 0) + 1;
    const drawn = this.times.length === d.samples ? 'all drawn' : this.times.length + ' drawn';
    const parts = [d.samples + ' samples (' + drawn + ')', d.table.name.length + ' bands (' +
      ['drawn', 'other', 'trace', 'dropped'].filter((f) => fates[f]).map((f) => fates[f] + ' ' + FATES[f]).join(', ') + ')'];
    head.append(el('h1', {}, d.file || d.job || 'hp2ps'), el('p', { class: 'facts' }, parts.join(' · ')),
      el('p', { class: 'hint' }, 'Point at the chart for the values at a sample. Drag across it to zoom, ' +
        'double-click to zoom out; with the chart focused, ←/→ move (or pan), +/− zoom, Esc zooms out. ' +
        'Click a legend entry to hide its band, Alt-click (or "only") to show it alone.'));
  };

  // ---- Toolbar ----

  R.buildToolbar = function () {
    const bar = this.section.querySelector('.toolbar');
    const views = el('div', { class: 'group', role: 'group', 'aria-label': 'View' });
    this.viewButtons = {};
    for (const [view, label, title] of [
      ['stacked', 'Stacked', 'The bands stacked, as hp2ps draws them'],
      ['normal', '100 %', "Each band's share of the visible total at every sample"],
      ['lines', 'Lines', 'One line per band, in ' + (this.d.valueUnit || 'its unit')],
    ]) {
      const b = el('button', { type: 'button', class: 'view', title, 'aria-pressed': String(view === 'stacked') }, label);
      b.addEventListener('click', () => { this.state.view = view; this.redraw(); });
      this.viewButtons[view] = b;
      views.appendChild(b);
    }
    const fit = el('input', { type: 'checkbox' });
    fit.addEventListener('change', () => { this.state.fitY = fit.checked; this.redraw(); });
    const fitLabel = el('label', { title: 'Scale the y axis to the bands and time shown' });
    fitLabel.append(fit, document.createTextNode('Fit y axis'));
    this.resetButton = el('button', { type: 'button', disabled: '', title: 'Show the whole run (double-click the chart, or Escape)' }, 'Zoom out');
    this.resetButton.addEventListener('click', () => this.zoomTo(null));
    this.showAll = el('button', { type: 'button', disabled: '', title: 'Show every band again' }, 'Show all bands');
    this.showAll.addEventListener('click', () => { this.state.hidden.clear(); this.redraw(); this.syncLegend(); });
    this.windowText = el('span', { class: 'window', 'aria-live': 'polite' });
    bar.append(views, fitLabel, this.resetButton, this.showAll, this.windowText);
  };

  R.updateToolbar = function () {
    const st = this.state;
    for (const v in this.viewButtons) this.viewButtons[v].setAttribute('aria-pressed', String(st.view === v));
    this.resetButton.disabled = !st.window;
    this.showAll.disabled = st.hidden.size === 0;
    const [a, b] = this.span();
    this.windowText.textContent = st.window ? 'Showing ' + seconds(a) + ' to ' + seconds(b) + ' ' + this.d.sampleUnit : '';
  };

  // ---- Legend ----

  // A key box: the band's fill (colour, or its pattern over the background) in a
  // 14-point square stroked black, as the key draws it.
  R.swatch = function (band) {
    const box = svgEl('svg', { class: 'sw', viewBox: '0 0 14 14', 'aria-hidden': 'true' });
    const fills = [band.colour].concat(band.pattern ? this.patternIds(band.pattern).map((id) => 'url(#' + id + ')') : []);
    fills.forEach((fill, i) => box.appendChild(svgEl('rect', {
      x: 0.5, y: 0.5, width: 13, height: 13, fill, stroke: i === fills.length - 1 ? '#000' : 'none',
    })));
    return box;
  };

  R.buildLegend = function () {
    const aside = this.section.querySelector('.legend');
    const panel = el('div', { class: 'panel' });
    const search = el('input', {
      type: 'search', placeholder: 'Filter: text, or /regex/', 'aria-label': 'Show the bands whose names match',
      spellcheck: 'false', autocomplete: 'off',
    });
    search.addEventListener('input', () => this.setFilter(search));
    const list = el('ul');
    this.legendItems = [];
    for (const band of this.bands.slice().reverse()) {
      const li = el('li', { class: 'entry' });
      li.dataset.band = band.name;
      li.bandIndex = band.k;
      const toggle = el('button', { type: 'button', class: 'toggle', 'aria-pressed': 'true', title: band.name + '\nClick: hide or show. Alt-click: show only this band.' });
      toggle.append(this.swatch(band), el('span', { class: 'name' }, band.name));
      toggle.addEventListener('click', (e) => (e.altKey ? this.isolate(band.k) : this.toggle(band.k)));
      const only = el('button', { type: 'button', class: 'only', 'aria-label': 'Show only ' + band.name, title: 'Show only this band (again: all)' }, 'only');
      only.addEventListener('click', () => this.isolate(band.k));
      li.append(toggle, only);
      li.addEventListener('mouseenter', () => { this.state.hot = band.k; this.applyHighlight(); });
      li.addEventListener('mouseleave', () => { this.state.hot = null; this.applyHighlight(); });
      list.appendChild(li);
      this.legendItems.push(li);
    }
    for (const line of this.lines) {
      const li = el('li', { class: 'entry line' });
      li.dataset.line = line.name;
      const toggle = el('button', { type: 'button', class: 'toggle', 'aria-pressed': 'true', title: line.tooltip });
      const sample = svgEl('svg', { class: 'sw', viewBox: '0 0 14 14', 'aria-hidden': 'true' });
      const attrs = { x1: 0, x2: 14, y1: 7, y2: 7, stroke: line.colour, 'stroke-width': line.width };
      if (line.dash) attrs['stroke-dasharray'] = line.dash.join(' ');
      sample.appendChild(svgEl('line', attrs));
      toggle.append(sample, el('span', { class: 'name' }, line.name));
      toggle.addEventListener('click', () => {
        const hidden = this.state.linesHidden;
        if (hidden.has(line.k)) hidden.delete(line.k); else hidden.add(line.k);
        toggle.setAttribute('aria-pressed', String(!hidden.has(line.k)));
        li.classList.toggle('off', hidden.has(line.k));
        this.redraw();
      });
      li.appendChild(toggle);
      list.appendChild(li);
    }
    this.count = el('div', { class: 'count' });
    panel.append(search, list, this.count);
    aside.appendChild(panel);
    this.syncLegend();
    if (this.d.keyLabels === 'fit') this.fitLabels();
  };

  // --key-labels fit: a name too wide for its entry loses its middle, not its end (the
  // most characters that fit, the end getting the odd one), as the chart's key does.
  R.fitLabels = function () {
    for (const li of this.legendItems) {
      const span = li.querySelector('.name');
      const name = [...span.textContent];
      if (span.scrollWidth <= span.clientWidth || name.length < 3) continue;
      const build = (keep) => name.slice(0, keep >> 1).join('') + '...' + name.slice(name.length - (keep - (keep >> 1))).join('');
      let lo = 0;
      let hi = name.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        span.textContent = build(mid);
        if (span.scrollWidth <= span.clientWidth) lo = mid; else hi = mid - 1;
      }
      span.textContent = build(lo);
    }
  };

  R.toggle = function (k) {
    const hidden = this.state.hidden;
    if (hidden.has(k)) hidden.delete(k); else hidden.add(k);
    this.redraw();
    this.syncLegend();
  };

  // Shows band k alone; if it is alone already, every band again.
  R.isolate = function (k) {
    const st = this.state;
    const alone = this.bands.every((b) => (b.k === k) !== st.hidden.has(b.k));
    st.hidden = new Set(alone ? [] : this.bands.filter((b) => b.k !== k).map((b) => b.k));
    this.redraw();
    this.syncLegend();
  };

  R.syncLegend = function () {
    let shown = 0;
    for (const li of this.legendItems) {
      const band = this.bands[li.bandIndex];
      const off = this.state.hidden.has(band.k);
      li.classList.toggle('off', off);
      li.firstChild.setAttribute('aria-pressed', String(!off));
      li.hidden = !this.matches(band.name);
      if (!off && !li.hidden) shown++;
    }
    this.count.textContent = shown + ' of ' + this.bands.length + ' bands drawn';
    this.showAll && (this.showAll.disabled = this.state.hidden.size === 0);
  };

  // The search box: a substring (any case), or /regex/flags.
  R.setFilter = function (input) {
    const q = input.value.trim();
    let filter = null;
    input.classList.remove('invalid');
    input.removeAttribute('aria-invalid');
    const re = /^\/(.+)\/([a-z]*)$/.exec(q);
    if (re) {
      try { filter = new RegExp(re[1], re[2].replace(/[gy]/g, '')); } catch (err) {
        input.classList.add('invalid');
        input.setAttribute('aria-invalid', 'true');
        return;
      }
    } else if (q) filter = q.toLowerCase();
    this.state.filter = filter;
    this.redraw();
    this.syncLegend();
    this.renderRows();
  };

  // ---- The band table ----

  const COLUMNS = [
    { key: 'colour', label: '', title: 'The colour of the band in the chart; for a band merged into OTHER, OTHER\'s' },
    { key: 'name', label: 'Band', title: 'The band\'s name (cost centre stack, closure, type, ...) as the profile gives it' },
    { key: 'peak', label: 'Peak', num: true, title: 'The band\'s highest value in one sample, in VALUE_UNIT (exact figure; --summary\'s peak)' },
    { key: 'peakTime', label: 'At', num: true, title: 'The time of the first sample with that value, in SAMPLE_UNIT' },
    { key: 'share', label: 'Share', num: true, title: 'The band\'s area (its values integrated over time, by trapezoids) as a share of the area of all bands, in percent (--summary\'s share)' },
    { key: 'slope', label: 'Growth', num: true, title: 'The slope of the least-squares line through the band\'s values over time, in VALUE_UNIT per SAMPLE_UNIT; absent samples count as 0 (what --sort growth orders by)' },
    { key: 'spark', label: 'Over time', title: 'The band over the run: its highest value in each of 40 equal slices of the samples, scaled to its own peak' },
    { key: 'fate', label: 'In the chart', title: 'drawn: a band of its own; in OTHER: merged into OTHER by the band limit (-m); trace: left out by trace elimination (-t); dropped: a negative -m' },
  ];

  R.buildTable = function () {
    const t = this.d.table;
    const unit = this.d.valueUnit;
    const tunit = this.d.sampleUnit;
    const subst = (s) => s.replace(/VALUE_UNIT/g, unit || 'the value unit').replace(/SAMPLE_UNIT/g, tunit || 'the sample unit');
    this.rowsOrder = t.name.map((_, i) => i);
    this.sort = { key: 'share', dir: -1 };
    this.limit = TABLE_ROWS;
    const counts = {};
    for (const f of t.fate) counts[f] = (counts[f] || 0) + 1;
    const caption = el('caption', {}, 'Every band of the profile: ' + t.name.length + ' (' +
      ['drawn', 'other', 'trace', 'dropped'].filter((f) => counts[f]).map((f) => counts[f] + ' ' + FATES[f]).join(', ') +
      '). Sort by a column with its header; a row highlights its band in the chart.');
    const head = el('thead');
    const tr = el('tr');
    this.headers = {};
    const columns = COLUMNS.concat(t.info ? [{ key: 'info', label: 'Info', title: 'What the eventlog and the program say about the band: a -hi band\'s info table (its IPE entry: table, closure type, Haskell type, binding, module, source) and symbol' }] : []);
    for (const c of columns) {
      const th = el('th', { scope: 'col', title: subst(c.title), class: c.num ? 'num' : '' });
      if (c.key !== 'colour' && c.key !== 'spark' && c.key !== 'info') {
        const b = el('button', { type: 'button' }, c.label + (c.num && c.key !== 'share' ? this.unitOf(c.key) : ''));
        b.addEventListener('click', () => this.sortBy(c.key));
        th.appendChild(b);
        this.headers[c.key] = th;
      } else th.textContent = c.label;
      tr.appendChild(th);
    }
    head.appendChild(tr);
    this.tbody = el('tbody');
    this.table.append(caption, head, this.tbody);
    this.more = el('button', { type: 'button', class: 'more-rows' });
    this.more.addEventListener('click', () => { this.limit = Infinity; this.renderRows(); });
    this.table.after(this.more);
    this.sortBy('share', -1);
  };

  const FATES = { drawn: 'drawn', other: 'in OTHER', trace: 'traces', dropped: 'dropped' };
  const FATE_TEXT = { drawn: 'drawn', other: 'in OTHER', trace: 'trace', dropped: 'dropped' };

  R.unitOf = function (key) {
    const d = this.d;
    if (key === 'peak') return d.valueUnit ? ' (' + d.valueUnit + ')' : '';
    if (key === 'peakTime') return d.sampleUnit ? ' (' + d.sampleUnit + ')' : '';
    if (key === 'slope') return d.valueUnit && d.sampleUnit ? ' (' + d.valueUnit + '/' + d.sampleUnit.replace(/s$/, '') + ')' : '';
    return '';
  };

  // Sorts by a column: numbers largest first, names A to Z; again: the other way.
  R.sortBy = function (key, dir) {
    const t = this.d.table;
    const same = this.sort.key === key;
    const d = dir || (same ? -this.sort.dir : key === 'name' || key === 'fate' ? 1 : -1);
    this.sort = { key, dir: d };
    const col = t[key];
    this.rowsOrder.sort((a, b) => {
      const x = col[a];
      const y = col[b];
      const c = x < y ? -1 : x > y ? 1 : 0;
      return c * d || a - b;
    });
    for (const k in this.headers) {
      this.headers[k].setAttribute('aria-sort', k === key ? (d > 0 ? 'ascending' : 'descending') : 'none');
    }
    this.renderRows();
  };

  // The drawn band that shows table row r: its own, or OTHER for a merged one.
  R.bandOfRow = function (r) {
    const fate = this.d.table.fate[r];
    const target = fate === 'drawn' ? r : fate === 'other' ? null : undefined;
    if (target === undefined) return null;
    const band = this.bands.find((b) => b.row === target);
    return band ? band.k : null;
  };

  R.renderRows = function () {
    const t = this.d.table;
    const unit = this.d.valueUnit;
    const rows = this.rowsOrder.filter((r) => this.matches(t.name[r]));
    const shown = rows.slice(0, this.limit);
    const made = shown.map((r) => {
      const tr = el('tr', { tabindex: '0', class: t.fate[r] === 'drawn' ? '' : 'gone' });
      tr.dataset.name = t.name[r];
      const k = this.bandOfRow(r);
      const sw = el('td');
      if (k !== null) sw.appendChild(this.swatch(this.bands[k]));
      const num = (key, text) => el('td', { class: 'num', 'data-value': String(t[key][r]) }, text);
      const [exact] = readable(t.peak[r], unit);
      const spark = svgEl('svg', { class: 'spark', viewBox: '0 0 40 10', preserveAspectRatio: 'none', 'aria-hidden': 'true' });
      const s = t.spark[r];
      spark.appendChild(svgEl('polyline', {
        points: s.map((v, i) => coord(s.length > 1 ? (i * 40) / (s.length - 1) : 20) + ',' + coord(10 - v / 10)).join(' '),
      }));
      const sparkCell = el('td');
      sparkCell.appendChild(spark);
      tr.append(sw, el('td', { class: 'name' }, t.name[r]), num('peak', exact), num('peakTime', seconds(t.peakTime[r])),
        num('share', (t.share[r] * 100).toFixed(2) + ' %'), num('slope', thousands(Math.round(t.slope[r]))),
        sparkCell, el('td', { class: 'fate' }, FATE_TEXT[t.fate[r]]));
      if (t.info) tr.appendChild(el('td', { class: 'info' }, (t.info[r] || []).join('; ')));
      if (this.state.pickedRow === r) tr.classList.add('picked');
      const pick = () => this.pick(r, tr);
      tr.addEventListener('click', pick);
      tr.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); pick(); } });
      return tr;
    });
    this.tbody.replaceChildren(...made);
    this.more.hidden = shown.length === rows.length;
    this.more.textContent = 'Show all ' + rows.length + ' rows';
  };

  // A row highlights its band in the chart (a merged band: OTHER); again: nothing.
  R.pick = function (r, tr) {
    const st = this.state;
    const again = st.pickedRow === r;
    st.pickedRow = again ? null : r;
    st.picked = again ? null : this.bandOfRow(r);
    for (const row of this.tbody.querySelectorAll('tr.picked')) row.classList.remove('picked');
    if (!again) tr.classList.add('picked');
    this.applyHighlight();
  };

  // ---- Start ----

  const source = document.getElementById('hp2ps-data');
  const data = source ? JSON.parse(source.textContent) : null;
  if (!data || data.format !== 'hp2ps-page') return;
  const sections = document.querySelectorAll('section.run');
  const runs = data.runs.map((run, i) => new Run(run, sections[i], i, data.font));
  // For user scripts and tests.
  window.hp2ps = { data, runs };
  performance.mark('hp2ps-ready');
})();
