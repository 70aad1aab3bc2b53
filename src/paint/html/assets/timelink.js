// hp2ps's page: the time profile linked to the heap profile of the same run. Pointing
// at a band marks what it is in the flame graph: a -hc band's stack (the stack the .hp
// numbers it by, "(302)…", else the stacks its names match), a -hm band's module's
// cost centres, a -hr band's retainer set's members (the .prof's table, named in the
// panel's status); choosing a cost centre marks the bands whose stacks hold it (its
// module's band, the retainer sets with it). The bands each name links to are worked
// out by the page's maker (time_panel.rs). With the eventlog's time samples (+RTS -p
// -l), the heap chart's window is also the time profile's: dragging across the chart
// (or zooming it any way) shows that window's time profile, made of its samples.
(function (H) {
  'use strict';
  const { thousands } = H;
  const P = H.TimeProfile.prototype;
  const R = H.Run.prototype;

  P.buildLink = function () {
    const d = this.d;
    this.links = new Map();
    for (const b of (d.link && d.link.bands) || []) this.links.set(b.name, b);
    if (d.samples) {
      const s = d.samples;
      this.sampleTree = s.tree ? new H.Tree(s.tree, this.ccs) : this.tree;
      this.sampleTimes = Float64Array.from(s.t);
      this.sampleNodes = Int32Array.from(s.n);
      // Binned (a long run's): each entry counts this many samples.
      this.sampleCounts = s.c ? Float64Array.from(s.c) : null;
      this.sampleTotal = this.sampleCounts ? this.sampleCounts.reduce((a, b) => a + b, 0) : this.sampleTimes.length;
    }
    if (this.run && this.run.state.window) this.heapWindow(this.run.state.window);
  };

  // The band named `name` is pointed at in the heap chart (null: none).
  P.bandPointed = function (name) {
    if (name === this.pointedBand) return;
    this.pointedBand = name;
    const link = name === null ? null : this.links.get(name);
    const v = this.view;
    this.linkedNodes = null;
    this.linkText = '';
    if (link && v === this.tree) {
      const marked = new Set();
      if (link.nodes) for (const n of link.nodes) for (let k = n; k >= 0 && !marked.has(k); k = v.parent[k]) marked.add(k);
      if (link.ccs) {
        const ccs = new Set(link.ccs);
        for (let i = 0; i < v.n; i++) if (ccs.has(v.cc[i])) marked.add(i);
      }
      this.linkedNodes = marked;
      this.linkText = this.linkTextOf(name, link);
    } else if (name !== null && this.d.link) {
      this.linkText = 'Band ' + name + ': ' + (v === this.tree ? 'no stack of the time profile matches it.' : 'its stacks are marked in the whole run\'s time profile.');
    }
    this.applyMarks();
  };

  P.linkTextOf = function (name, link) {
    const kind = this.d.link.kind;
    const m = this.state.measure;
    if (kind === 'hr') {
      return 'Band ' + name + ': retainer set ' + link.set + ' = {' + link.members.map((x) => '<' + x + '>').join(', ') + '}' +
        (link.ccs && link.ccs.length ? ', its cost centres marked.' : '.');
    }
    if (kind === 'hm') return 'Band ' + name + ': the module\'s ' + link.ccs.length + ' cost centre' + (link.ccs.length === 1 ? '' : 's') + ' marked.';
    const v = this.tree;
    const stacks = link.nodes.map((n) => v.path(n).map((k) => v.name(k)).join(' › ') + ' (' + this.amountOf(m, v.inh[m][n]) + ')');
    return 'Band ' + name + ': ' + (stacks.length === 1 ? 'its stack ' : stacks.length + ' stacks ') + stacks.slice(0, 3).join('; ') + (stacks.length > 3 ? '; …' : '') + '.';
  };

  // The heap chart's bands whose stacks hold the chosen cost centre, marked.
  P.ccChosen = function () {
    const run = this.run;
    if (!run || !this.d.link) return;
    const cc = this.state.cc;
    const names = new Set();
    if (cc >= 0) {
      const v = this.tree;
      for (const [name, link] of this.links) {
        let holds = link.ccs ? link.ccs.indexOf(cc) >= 0 : false;
        for (const n of link.nodes || []) for (let k = n; k >= 0 && !holds; k = v.parent[k]) holds = v.cc[k] === cc;
        if (holds) names.add(name);
      }
    }
    run.linkedBands = run.bands.filter((b) => names.has(b.name)).map((b) => b.k);
    run.applyHighlight();
    const n = names.size;
    this.linkText = cc < 0 || !this.d.link ? '' : n ? 'The heap chart marks the ' + n + ' band' + (n === 1 ? '' : 's') + ' holding ' + this.ccs.label[cc] + '.' : 'No band of the heap profile holds ' + this.ccs.label[cc] + '.';
    this.describe();
  };

  // ---- Brushing: the heap chart's window is the time profile's ----

  // The heap chart shows `win` ([from, to] in seconds, null: the whole run).
  P.heapWindow = function (win) {
    const key = String(win);
    if (key === this.brushed) return;
    this.brushed = key;
    if (!this.sampleTree) {
      this.windowText = win ? 'The time profile is the whole run\'s: only an eventlog of +RTS -p -l has the times of its samples.' : '';
      this.describe();
      return;
    }
    const whole = !win;
    this.view = whole ? this.tree : this.windowTree(win);
    this.windowHeader = whole ? null : this.windowHeaderOf(this.view.total('ticks'));
    this.state.zoom = -1;
    this.pointedBand = undefined;
    this.linkedNodes = null;
    const shown = this.view.total('ticks');
    this.windowText = whole ? '' : 'The time profile of ' + H.when(win[0], 'seconds') + ' to ' + H.when(win[1], 'seconds') + ' (the heap chart\'s window): ' +
      thousands(shown) + ' of the run\'s ' + thousands(this.sampleTotal) + ' samples.';
    this.draw();
    this.drawSandwich();
  };

  // The tree of the samples from t0 to t1 (Sampled::tree_of_window): the sample tree,
  // each stack's ticks counted in the window, its time their share.
  P.windowTree = function (win) {
    const s = this.sampleTree;
    const times = this.sampleTimes;
    const [t0, t1] = win ? win : [-Infinity, Infinity];
    const first = (t) => { let lo = 0; let hi = times.length; while (lo < hi) { const mid = (lo + hi) >> 1; if (times[mid] < t) lo = mid + 1; else hi = mid; } return lo; };
    const ticks = new Float64Array(s.n);
    let total = 0;
    const counts = this.sampleCounts;
    for (let j = first(t0), end = first(t1); j < end; j++) {
      const n = this.sampleNodes[j];
      const c = counts ? counts[j] : 1;
      if (n >= 0) { ticks[n] += c; total += c; }
    }
    const time = ticks.map((t) => (total > 0 ? (100 * t) / total : 0));
    return new H.Tree({ cc: s.cc, depth: s.depth, own: { time, ticks } }, this.ccs);
  };

  P.windowHeaderOf = function (ticks) {
    const h = this.d.header;
    const interval = h.interval || (this.d.samples && this.d.samples.interval) || null;
    return { totalTicks: ticks, interval, totalTime: interval ? ticks * interval : null, totalAlloc: null, processors: h.processors };
  };

  // ---- The heap chart's side ----

  // The highlight: the band pointed at or picked, else the bands the chosen cost centre
  // is in; the time profile hears which band is pointed at.
  const highlight = R.applyHighlight;
  R.applyHighlight = function () {
    highlight.call(this);
    const k = this.state.hot !== null ? this.state.hot : this.state.picked;
    if (this.timePanel) this.timePanel.bandPointed(k === null || !this.bands[k] ? null : this.bands[k].name);
    if (k === null && this.linkedBands && this.linkedBands.length) this.showBands(this.linkedBands);
  };

  // Bands ks over the veil, their legend entries marked.
  R.showBands = function (ks) {
    const groups = this.shown.querySelector('g.bands').children;
    const copies = ks.map((k) => groups[k]).filter((g) => g && g.childElementCount > 0).map((g) => {
      const c = g.cloneNode(true);
      c.setAttribute('class', 'fill');
      return c;
    });
    this.hot.replaceChildren(...copies);
    if (this.state.window || this.state.view !== 'stacked') this.hot.setAttribute('clip-path', 'url(#hp2ps-clip-' + this.index + ')');
    else this.hot.removeAttribute('clip-path');
    this.veil.setAttribute('visibility', copies.length ? 'visible' : 'hidden');
    const names = new Set(ks.map((k) => this.bands[k].name));
    for (const li of this.legendItems || []) li.classList.toggle('hot', names.has(li.dataset.band));
  };

  const windowChanged = R.windowChanged;
  R.windowChanged = function () {
    windowChanged.call(this);
    if (this.timePanel) this.timePanel.heapWindow(this.state.window);
  };
})(window.hp2ps);
