// hp2ps's page: the heading, the toolbar and the legend.
(function (H) {
  'use strict';
  const { FATES, seconds, el, svgEl } = H;
  const R = H.Run.prototype;

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
})(window.hp2ps);
