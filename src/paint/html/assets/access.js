// hp2ps's page for the keyboard and for screen readers: skip links to the chart and the
// table; a few tab stops per panel (the toolbar, the chart, the legend, the table's
// headers and rows, the icicle, the marks), the arrow keys inside each (a "roving"
// tab stop: one item of a panel is in the tab order, the one last focused); the
// chart's picture hidden from assistive technology, its summary in words in its place
// (the table has every number); and tick labels kept legible when the chart is small.
(function (H) {
  'use strict';
  const { el } = H;
  const R = H.Run.prototype;

  // Makes `list[j]` the panel's tab stop (and focuses it unless `quiet`).
  H.focusItem = function (list, j, quiet) {
    list.forEach((x, k) => { x.tabIndex = k === j ? 0 : -1; });
    if (!quiet && list[j]) list[j].focus();
  };

  // Keeps one tab stop among `list`: the one that has it, else the first.
  H.roveReset = function (list) {
    if (!list.length) return;
    const j = list.findIndex((x) => x.tabIndex === 0);
    H.focusItem(list, j < 0 ? 0 : j, true);
  };

  // The arrow keys move among `items()` inside `box` (↑ ↓ when `vertical`, else ← →),
  // Home and End to its ends; the item focused becomes the tab stop.
  H.rove = function (box, items, vertical) {
    if (box.roving) return;
    box.roving = true;
    box.addEventListener('keydown', (e) => {
      const list = items();
      const i = list.indexOf(document.activeElement);
      if (i < 0 || e.altKey || e.ctrlKey || e.metaKey) return;
      const [back, on] = vertical ? ['ArrowUp', 'ArrowDown'] : ['ArrowLeft', 'ArrowRight'];
      let j;
      if (e.key === on) j = Math.min(list.length - 1, i + 1);
      else if (e.key === back) j = Math.max(0, i - 1);
      else if (e.key === 'Home') j = 0;
      else if (e.key === 'End') j = list.length - 1;
      else return;
      e.preventDefault();
      H.focusItem(list, j);
    });
    box.addEventListener('focusin', (e) => {
      const list = items();
      const i = list.indexOf(e.target);
      if (i >= 0) H.focusItem(list, i, true);
    });
  };

  // A table's rows (↑ ↓) and its sort headers (← →): a tab stop each.
  H.roveRows = function (table) {
    const rows = () => [...table.querySelectorAll('tbody tr[tabindex]')];
    const heads = () => [...table.querySelectorAll('thead th button')];
    H.rove(table, rows, true);
    if (table.tHead) {
      H.rove(table.tHead, heads, false);
      H.roveReset(heads());
    }
    H.roveReset(rows());
  };

  // The skip links, first in the page: to the first chart and to its table (the
  // difference table of a page of several runs).
  H.skipLinks = function () {
    if (document.querySelector('nav.skip')) return;
    const nav = el('nav', { class: 'skip', 'aria-label': 'Skip links' });
    const link = (text, target) => {
      const a = el('a', { href: '#' + target.id }, text);
      // The fragment holds the page's state: the link moves the focus, not the address.
      a.addEventListener('click', (e) => {
        e.preventDefault();
        if (target.tabIndex < 0 && !target.hasAttribute('tabindex')) target.tabIndex = -1;
        target.focus();
        target.scrollIntoView({ block: 'start' });
      });
      return a;
    };
    const chart = document.getElementById('chart');
    const table = document.getElementById('diff') || document.getElementById('bands');
    const flame = document.getElementById('calldiff') || document.getElementById('calltree');
    const ccs = document.getElementById('ccchanges') || document.getElementById('costcentres');
    if (chart) nav.appendChild(link('Skip to the chart', chart));
    if (table) nav.appendChild(link(table.id === 'diff' ? 'Skip to what changed' : 'Skip to the band table', table));
    if (flame) nav.appendChild(link(flame.id === 'calldiff' ? 'Skip to the flame graph of the change' : 'Skip to the flame graph', flame));
    if (ccs) nav.appendChild(link('Skip to the cost centres', ccs));
    document.body.insertBefore(nav, document.body.firstChild);
  };

  R.buildAccess = function () {
    // The chart in words, in the picture's place for a screen reader.
    this.summary = el('p', { class: 'sr-only', id: 'hp2ps-summary-' + this.index });
    this.figure.appendChild(this.summary);
    this.figure.setAttribute('aria-describedby', this.summary.id);
    this.describe();
    // The panels' tab stops.
    const bar = this.section.querySelector('.toolbar');
    H.rove(bar, () => this.toolbarItems(), false);
    H.roveReset(this.toolbarItems());
    H.rove(this.list, () => this.legendStops(), true);
    H.roveReset(this.legendStops());
    if (this.markList) H.rove(this.markList, () => [...this.markList.querySelectorAll('button')], true);
    // Tick labels at least 11 CSS pixels high, however narrow the chart.
    if (window.ResizeObserver) {
      new ResizeObserver(() => {
        const w = this.figure.getBoundingClientRect().width;
        const scale = w > 0 ? Math.min(1.6, Math.max(1, (11 * 648) / (10 * w))) : 1;
        if (this.figure.style.getPropertyValue('--label-scale') === scale.toFixed(3)) return;
        this.figure.style.setProperty('--label-scale', scale.toFixed(3));
        if (this.current) this.drawPeak(this.current.vSpan);
      }).observe(this.figure);
    }
  };

  // The toolbar's controls that take the focus.
  R.toolbarItems = function () {
    const bar = this.section.querySelector('.toolbar');
    return [...bar.querySelectorAll('button, input[type="checkbox"]')].filter((b) => !b.disabled && b.offsetParent !== null);
  };

  // The legend's entries that take the focus: their toggles, as shown.
  R.legendStops = function () {
    return [...this.list.querySelectorAll('li:not([hidden]) > .toggle')];
  };

  // What the chart shows, in a sentence or three: its kind, the bands, the time shown,
  // the peak and the biggest bands; the table has every number.
  R.describe = function () {
    if (!this.summary) return;
    const d = this.d;
    const st = this.state;
    const [a, b] = this.span();
    const view = { stacked: 'Stacked', normal: 'Each band\'s share (100 %)', lines: 'Lines' }[st.view];
    const shown = this.visible();
    const peak = this.peak();
    const big = d.table.name.map((n, r) => [n, d.table.share[r]]).sort((x, y) => y[1] - x[1]).slice(0, 3)
      .map(([n, s]) => n + ' ' + (s * 100).toFixed(1) + ' %');
    this.summary.textContent = view + ' chart of ' + shown.length + ' of the ' + this.bands.length + ' bands drawn (' +
      d.table.name.length + ' in the profile), from ' + H.when(a, d.sampleUnit) + ' to ' + H.when(b, d.sampleUnit) + '. ' +
      (peak ? 'Peak ' + this.peakText(peak) + '. ' : '') + (big.length ? 'Biggest by area: ' + big.join(', ') + '. ' : '') +
      'The band table below has every band\'s numbers; with the chart focused, the arrow keys read it sample by sample.';
  };

  // WCAG 2's contrast of two colours (#rrggbb).
  H.contrast = function (a, b) {
    const lum = (hex) => {
      const c = parseInt(hex.slice(1), 16);
      const l = (v) => { const x = v / 255; return x <= 0.04045 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); };
      return 0.2126 * l(c >> 16) + 0.7152 * l((c >> 8) & 255) + 0.0722 * l(c & 255);
    };
    const [x, y] = [lum(a), lum(b)];
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
  };
})(window.hp2ps);
