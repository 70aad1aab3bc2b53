// hp2ps's page: one run (a chart with its legend, readout and table), its layers and its state.
(function (H) {
  'use strict';
  const { PAGE, coord, svgEl } = H;

  // ---- One run: a chart with its legend, readout and table ----

  function Run(d, section, index, font) {
    this.d = d;
    this.font = font;
    this.index = index;
    this.section = section;
    const s = d.scale;
    this.s = s;
    // The drawn samples; zoomed, finer ones from the data's levels take their place
    // (detail.js). The bands not drawn on their own come too when the page carries them.
    const column = (v) => Float64Array.from(v || []);
    this.base = { times: column(d.times), values: d.values.map(column), rest: d.rest ? d.rest.values.map(column) : [] };
    this.times = this.base.times;
    this.detailKey = 'base';
    this.bands = d.bands.map((b, k) => ({
      name: b.name, colour: b.colour, pattern: b.pattern, row: b.row, values: this.base.values[k], base: this.base.values[k], k,
    }));
    this.rest = d.rest ? d.rest.rows.map((row, j) => ({ row, name: d.table.name[row], values: this.base.rest[j], base: this.base.rest[j] })) : [];
    // A table row's band, when the page has its values.
    this.byRow = new Map();
    for (const b of this.bands.concat(this.rest)) if (b.row !== null) this.byRow.set(b.row, b);
    this.lines = d.lines.map((l, k) => ({ ...l, k }));
    this.state = {
      hidden: new Set(), linesHidden: new Set(), filter: null, window: null,
      view: 'stacked', fitY: false, hot: null, picked: null, pickedRow: null, at: null, atTime: null,
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
    this.buildIcicle();
    this.listen();
  }


  H.Run = Run;
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
    this.crossLine = svgEl('line', { stroke: '#d00', 'stroke-width': '0.75', visibility: 'hidden' });
    this.selection = svgEl('rect', { fill: 'rgba(31,95,191,.18)', stroke: '#1f5fbf', 'stroke-width': '0.5', visibility: 'hidden' });
    this.hit = svgEl('rect', { ...graph, class: 'hit', fill: 'transparent' });
    o.append(this.defs, this.markLines, this.veil, this.hot, this.crossLine, this.selection, this.hit);
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

  // The sample nearest time t (the earlier of two as near).
  R.nearest = function (t) {
    let i = this.search(t);
    if (i > 0 && Math.abs(this.times[i - 1] - t) <= Math.abs(this.times[i] - t)) i--;
    return i;
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
})(window.hp2ps);
