// hp2ps's page: one run (a chart with its legend, readout and table), its layers and its state.
(function (H) {
  'use strict';
  const { PAGE, coord, svgEl } = H;

  // ---- One run: a chart with its legend, readout and table ----

  function Run(d, section, index, font) {
    this.font = font;
    this.index = index;
    this.section = section;
    // What the reader chose, apart from the data: bands by name, so that new data (a
    // live page) keeps it; `units` is the page's (binary, decimal, or hp2ps's axis).
    this.state = {
      hidden: new Set(), linesHidden: new Set(), filter: null, query: '', window: null, view: 'stacked',
      fitY: true, units: d.scale.units || 'hp2ps', added: [], markQuery: '',
      hot: null, picked: null, pickedRow: null, at: null, atTime: null,
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
    // The painter's picture is for the eye: the summary and the table say it in words.
    this.picture.setAttribute('aria-hidden', 'true');
    this.setData(d);
    this.prepareOverlay();
    this.addGrid(this.picture);
    this.buildHeapPanel();
    this.buildHeading();
    this.buildToolbar();
    this.buildLegend();
    this.buildMarks();
    this.buildOverview();
    this.buildTable();
    this.buildIcicle();
    this.listen();
    this.buildAccess();
    this.themeChanged();
  }

  H.Run = Run;
  const R = Run.prototype;

  // Takes the run's data: the drawn samples and, zoomed, finer ones from the data's levels
  // (detail.js); the bands not drawn on their own come too when the page carries them.
  R.setData = function (d) {
    this.d = d;
    this.s = d.scale;
    const column = (v) => Float64Array.from(v || []);
    const rest = d.rest ? d.rest.values.map(column) : [];
    const at = d.rest && d.rest.samples;
    const times = column(d.times);
    const values = d.values.map(column);
    // Every band's total at each sample (--summary's: traces included).
    const totals = d.totals && d.totals.length === times.length ? column(d.totals) : this.totals(values.map((v) => ({ values: v })), times.length);
    this.base = { times, values, rest: at ? [] : rest, totals };
    // The bands not drawn on their own, when the page's budget carries them at some of
    // the drawn samples only: those samples, for a chart that draws one of them.
    const pick = (v) => Float64Array.from(at, (i) => v[i]);
    this.restBase = at ? { times: pick(times), values: values.map(pick), rest, totals: pick(totals) } : null;
    this.totalsNow = totals;
    this.times = this.base.times;
    this.detailKey = 'base';
    this.drawn = d.bands.map((b, k) => ({
      name: b.name, colour: b.colour, line: b.line, pattern: b.pattern, row: b.row, values: this.base.values[k], raw: this.base.values[k], k,
    }));
    this.rest = d.rest ? d.rest.rows.map((row, j) => ({ row, name: d.table.name[row], values: this.base.rest[j] || null, j })) : [];
    // A table row's band, when the page has its values.
    this.byRow = new Map();
    for (const b of this.drawn.concat(this.rest)) if (b.row !== null) this.byRow.set(b.row, b);
    this.lines = d.lines.map((l, k) => ({ ...l, k }));
    this.other = this.drawn.find((b) => b.row === null) || null;
    this.bands = this.drawn.slice();
    this.addBands();
  };

  // The bands drawn: the chart's, then those the reader added from the table (its rows
  // in OTHER or left out as traces, whose values the page carries), each a colour no
  // band has and on top of the stack; OTHER then holds what it held less theirs.
  R.addBands = function () {
    const added = this.state.added.map((name) => this.rest.find((r) => r.name === name)).filter(Boolean);
    this.state.added = added.map((r) => r.name);
    const spare = this.d.spare || [];
    this.bands = this.drawn.concat(added.map((r, i) => ({
      name: r.name, colour: (spare[i] || spare[0] || { colour: '#888' }).colour,
      line: (spare[i] || spare[0] || { line: ['#888', '#aaa'] }).line, pattern: null, row: r.row, rest: r,
      added: true, k: this.drawn.length + i, values: r.values,
    })));
    // The samples that carry the added bands' values (the page's thinned set of them,
    // when its budget made one), and OTHER without them.
    this.detailKey = null;
    this.useDetail();
  };

  // OTHER's values at the samples shown, without those of the bands added from it.
  R.refreshOther = function () {
    const o = this.other;
    if (!o) return;
    const fate = this.d.table.fate;
    const from = this.bands.filter((b) => b.added && fate[b.row] === 'other');
    o.values = o.raw;
    if (!from.length) return;
    const v = Float64Array.from(o.raw);
    for (const b of from) for (let i = 0; i < v.length; i++) v[i] = Math.max(0, v[i] - b.values[i]);
    o.values = v;
  };

  // The overlay: an SVG on top of the pictures, in a layer of its own, holding the marks'
  // lines and labels, the highlight (a veil over the graph and a copy of the band), the
  // crosshair, the zoom selection, and a transparent target for the pointer.
  R.prepareOverlay = function () {
    const s = this.s;
    this.viewBox = this.picture.getAttribute('viewBox') || '0 0 648 ' + PAGE;
    const o = svgEl('svg', { class: 'overlay', viewBox: this.viewBox, 'aria-hidden': 'true' });
    this.overlay = o;
    this.defs = svgEl('defs');
    const clip = svgEl('clipPath', { id: 'hp2ps-clip-' + this.index });
    const graph = {
      x: coord(s.x0), y: coord(PAGE - s.y0 - s.height), width: coord(s.width), height: coord(s.height),
    };
    clip.appendChild(svgEl('rect', graph));
    this.defs.appendChild(clip);
    this.markLines = svgEl('g', { class: 'marks-on' });
    this.markLabels = svgEl('g', { class: 'mark-labels' });
    this.veil = svgEl('rect', { ...graph, class: 'veil', visibility: 'hidden' });
    this.hot = svgEl('g', { class: 'hot-band' });
    this.crossLine = svgEl('line', { class: 'cross', visibility: 'hidden' });
    this.selection = svgEl('rect', { class: 'selection', visibility: 'hidden' });
    this.hit = svgEl('rect', { ...graph, class: 'hit', fill: 'transparent' });
    o.append(this.defs, this.markLines, this.veil, this.hot, this.markLabels, this.crossLine, this.selection, this.hit);
    this.figure.insertBefore(o, this.readout);
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

  // New data for a page that is open (a live page): the reader's state kept, the chart
  // drawn from the new data (the picture, of the old data, is not shown again).
  R.update = function (d) {
    this.setData(d);
    this.stale = true;
    this.factsLine.textContent = this.factsText();
    this.fillLegend();
    this.tableRows();
    this.numbers();
    this.sortBy(this.sort.key, this.sort.dir);
    if (this.tree) this.makeTree();
    this.redraw();
    this.icicleChanged();
    if (this.compare) this.compare.build();
  };

  // Whether the state is the picture's: every band, the whole run, stacked, its units.
  R.pristine = function () {
    const st = this.state;
    return !this.stale && !st.window && st.hidden.size === 0 && !st.filter && st.view === 'stacked' &&
      st.added.length === 0 && st.units === (this.s.units || 'hp2ps');
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

  R.isHidden = function (band) {
    return this.state.hidden.has(band.name);
  };

  R.visible = function () {
    return this.bands.filter((b) => !this.isHidden(b) && this.matches(b.name));
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

  R.totals = function (visible, count) {
    const n = count === undefined ? this.times.length : count;
    const t = new Float64Array(n);
    for (const b of visible) for (let i = 0; i < n; i++) t[i] += b.values[i];
    return t;
  };

  // Whether every band is shown (none hidden, no filter): the stack is then the profile's.
  R.allShown = function () {
    return this.state.hidden.size === 0 && !this.state.filter;
  };

  // The value at the top of the graph: what the visible bands need in the window (by
  // default; the layout's, the profile's peak, with every band of the whole run), or
  // the layout's ("Fit y" off). The heap lines have a panel and a scale of their own.
  R.vSpan = function (visible, totals) {
    const st = this.state;
    if (st.view === 'normal') return 100;
    if (!st.fitY || (!st.window && this.allShown() && st.view === 'stacked')) return this.s.vSpan;
    const [i0, i1] = this.range();
    const every = st.view === 'stacked' && this.allShown() ? this.totalsNow : null;
    let top = 0;
    for (let i = i0; i <= i1; i++) {
      if (st.view === 'lines') {
        for (const b of visible) if (b.values[i] > top) top = b.values[i];
      } else if (totals[i] > top) top = totals[i];
      if (every && every[i] > top) top = every[i];
    }
    return top === 0 ? 1 : top;
  };

  R.inWindow = function (t) {
    const [a, b] = this.span();
    return t >= a && t <= b;
  };

  // The colour a band or line is stroked in as a line: the data's for the scheme shown.
  R.lineColour = function (b) {
    return b.line ? b.line[H.dark() ? 1 : 0] : b.colour;
  };

  // The scheme changed: the picture's lines over the bands in its colours, and a redraw.
  R.themeChanged = function () {
    for (const l of this.lines) {
      this.picture.querySelectorAll('.line-' + l.k).forEach((e) => e.setAttribute('stroke', this.lineColour(l)));
    }
    this.redraw();
  };
})(window.hp2ps);
