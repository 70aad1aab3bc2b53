// hp2ps's page: a run's header (what the profile is) and its toolbar.
(function (H) {
  'use strict';
  const { FATES, KINDS, el, amount } = H;
  const R = H.Run.prototype;

  // ---- Header ----

  // What the profile is: its kind, the sampling interval, the runtime, from the eventlog
  // when it told, else from the JOB's RTS options ("prog +RTS -hc -i0.05").
  R.profileFacts = function () {
    const d = this.d;
    const f = d.facts || {};
    const job = d.job || '';
    const rts = /(?:^|\s)\+RTS\s(.*?)(?:\s-RTS\b|$)/.exec(job);
    const opts = rts ? rts[1] : '';
    const flag = /(?:^|\s)(-h[a-zA-Z]?)(?=[\s,]|$)/.exec(opts);
    let breakdown = f.breakdown || (flag ? flag[1] : null);
    if (breakdown === '-h') breakdown = this.stacks() ? '-hc' : null;
    const i = /(?:^|\s)-i(\d*\.?\d+(?:e-?\d+)?)(?=\s|$)/.exec(opts);
    let interval = typeof f.interval === 'number' ? f.interval : i ? +i[1] : null;
    const defaulted = interval === null && !!breakdown && !!rts;
    if (defaulted) interval = 0.1;
    const ghc = f.runtime ? /^GHC-([\d.]+)/.exec(f.runtime) : null;
    return { breakdown, interval, defaulted, runtime: f.runtime || null, ghc: ghc ? ghc[1] : null };
  };

  R.buildHeading = function () {
    const d = this.d;
    const head = this.section.querySelector('.run-head');
    const f = this.profileFacts();
    this.facts = f;
    const kind = el('div', { class: 'kind' });
    if (f.breakdown) {
      kind.appendChild(el('span', { class: 'chip strong', 'data-fact': 'kind', title: 'The heap profile\'s breakdown: what its bands are' },
        (KINDS[f.breakdown] || 'heap profile') + ', ' + f.breakdown));
    }
    if (f.interval !== null) {
      const ms = f.interval * 1000;
      const every = ms < 1000 ? +ms.toPrecision(3) + ' ms' : +f.interval.toPrecision(3) + ' s';
      kind.appendChild(el('span', { class: 'chip', 'data-fact': 'interval', title: 'The sampling interval (-i)' + (f.defaulted ? ': GHC\'s default, no -i given' : '') },
        'every ' + every + (f.defaulted ? ' (default)' : '')));
    }
    if (f.runtime) kind.appendChild(el('span', { class: 'chip', 'data-fact': 'runtime', title: 'The runtime that wrote the log: ' + f.runtime }, f.ghc ? 'GHC ' + f.ghc : f.runtime));
    if (d.date) kind.appendChild(el('span', { class: 'chip', title: 'DATE' }, d.date));
    const tools = el('div', { class: 'head-tools' });
    const theme = el('button', { type: 'button', class: 'theme', title: 'Light or dark (the system\'s setting until chosen)', 'aria-label': 'Light or dark' }, '◐');
    theme.addEventListener('click', () => H.toggleTheme());
    tools.appendChild(theme);
    const facts = el('p', { class: 'facts' }, this.factsText());
    this.factsLine = facts;
    const children = [el('h1', {}, d.file || d.job || 'hp2ps'), kind, tools, facts];
    if (d.job) children.push(el('p', { class: 'facts job', title: 'JOB: the program and its options' }, d.job));
    for (const w of (d.facts && d.facts.warnings) || []) children.push(el('p', { class: 'warning', role: 'note', 'data-read-warning': '' }, 'Read with a warning: ' + w + '.'));
    for (const note of d.notes || []) children.push(el('p', { class: 'warning', role: 'note' }, 'Left out: ' + note + '.'));
    const budget = this.budgetNote();
    if (budget) children.push(el('p', { class: 'warning budget', role: 'note' }, budget));
    const help = el('details', { class: 'help' });
    help.append(el('summary', {}, 'How to read and use this page'),
      el('p', {}, 'Point at the chart for the values at a time, the largest first. Drag across it to zoom, double-click to zoom out; ' +
        'with the chart focused, ← → move (or pan when zoomed), + − zoom, Esc zooms out. While zoomed, the strip under the chart shows where you are: drag its window.'),
      el('p', {}, 'Click a legend entry to hide its band, Alt-click (or "only") to show it alone; the filter takes text or /regex/. ' +
        'A band merged into OTHER or left out as a trace can be drawn from the table ("draw"). The link button copies a link to this view; ' +
        'the browser\'s back and forward buttons go through the windows zoomed to.'),
      el('p', {}, 'The keyboard: Tab goes from panel to panel (toolbar, chart, legend, table, icicle, marks); arrow keys move inside one, ' +
        'Enter or Space acts (in the legend: hides or shows, with Alt: shows only that band; in the table: highlights, D draws a band from OTHER).'),
      el('p', {}, 'The total is every band of the profile, traces included (--summary\'s); the peak is its highest. ' +
        'The heap lines (--heap-size) are measured by the runtime, not by the profile: they have a panel and a scale of their own.'),
      el('p', {}, 'Values are in ' + (this.state.units === 'decimal' ? 'decimal' : 'binary') + ' units (1 MiB = 1,048,576 bytes) unless switched; exact figures are in each value\'s tooltip.'));
    children.push(help);
    head.append(...children);
  };

  // What the page's budget of values did to the bands not drawn on their own, if
  // anything: carried at fewer samples, or not at all.
  R.budgetNote = function () {
    const d = this.d;
    const kept = d.table.fate.filter((f) => f === 'other' || f === 'trace').length;
    if (!kept) return null;
    const count = kept + (kept === 1 ? ' band' : ' bands') + ' in OTHER or left out as traces';
    if (d.rest && d.rest.samples) {
      return 'The page\'s budget of values is met: the ' + count + ' can be drawn from the table, from ' +
        H.thousands(d.rest.samples.length) + ' of the ' + H.thousands(d.times.length) + ' samples drawn (-m or --include draws one from every sample).';
    }
    if (!d.rest) return 'The page\'s budget of values is met: the values of the ' + count + ' are not in this page, so the table cannot draw them (-m or --include draws one).';
    return null;
  };

  // The profile's peak: every band's total (traces included, as --summary) at its
  // highest, and the first sample with it (the page always draws that sample).
  R.peak = function () {
    const t = this.base.totals;
    if (!t.length) return null;
    let top = 0;
    for (let i = 1; i < t.length; i++) if (t[i] > t[top]) top = i;
    return { value: t[top], time: this.base.times[top], i: top };
  };

  // "57 samples (all drawn) · 21 bands: 9 drawn, 12 traces · peak 42.6 MiB at 0.15 s".
  R.factsText = function () {
    const d = this.d;
    const fates = {};
    for (const f of d.table.fate) fates[f] = (fates[f] || 0) + 1;
    const bands = d.table.name.length + (d.tableLeftOut ? d.tableLeftOut.bands : 0);
    const drawn = this.base.times.length === d.samples ? 'all drawn' : this.base.times.length + ' drawn';
    const parts = [d.samples + ' samples (' + drawn + ')', bands + ' bands: ' +
      ['drawn', 'other', 'trace', 'dropped'].filter((f) => fates[f]).map((f) => fates[f] + ' ' + FATES[f]).join(', ') +
      (d.tableLeftOut ? ', ' + d.tableLeftOut.bands + ' not in this page' : '')];
    const peak = this.peak();
    if (peak) parts.push('peak ' + this.peakText(peak));
    return parts.join(' · ');
  };

  // "42.6 MiB at 0.152 s": the peak as the header, the axis and the table's total say it.
  R.peakText = function (peak) {
    return amount(peak.value, this.d.valueUnit, this.state.units) + ' at ' + H.when(+peak.time.toPrecision(3), this.d.sampleUnit);
  };

  // ---- Toolbar ----

  R.buildToolbar = function () {
    const bar = this.section.querySelector('.toolbar');
    this.views = H.segmented('View', [
      ['stacked', 'Stacked', 'The bands stacked, as hp2ps draws them'],
      ['normal', '100 %', "Each band's share of the visible total at every sample"],
      ['lines', 'Lines', 'One line per band'],
    ], (view) => this.setView(view), 'view');
    const fit = el('input', { type: 'checkbox', checked: '' });
    fit.addEventListener('change', () => { this.state.fitY = fit.checked; this.redraw(); });
    this.fitBox = fit;
    const fitLabel = el('label', { title: 'Scale the y axis to the bands and time shown (off: the whole profile\'s scale)' });
    fitLabel.append(fit, document.createTextNode('Fit y'));
    const bytes = this.d.valueUnit === 'bytes';
    this.unitsControl = H.segmented('Units', [
      ['binary', bytes ? 'MiB' : 'binary', 'Binary units: KiB, MiB, GiB (powers of 1024)'],
      ['decimal', bytes ? 'MB' : 'decimal', 'Decimal units: kB, MB, GB (powers of 1000)'],
    ], (u) => this.setUnits(u), 'units');
    this.resetButton = el('button', { type: 'button', disabled: '', title: 'Show the whole run (double-click the chart, or Escape)' }, 'Zoom out');
    this.resetButton.addEventListener('click', () => this.zoomTo(null));
    this.showAll = el('button', { type: 'button', disabled: '', title: 'Show every band again' }, 'Show all bands');
    this.showAll.addEventListener('click', () => { this.state.hidden.clear(); this.redraw(); this.syncLegend(); });
    this.windowText = el('span', { class: 'window', 'aria-live': 'polite' });
    const tools = el('div', { class: 'tools' });
    const link = el('button', { type: 'button', title: 'Copy a link to this view (the window, view, bands, filter and units are in the link)' }, 'Copy link');
    link.addEventListener('click', () => this.copyLink(link));
    const svg = el('button', { type: 'button', title: 'Save the chart as shown, with its legend, as SVG' }, 'SVG');
    svg.addEventListener('click', () => this.download('svg'));
    const png = el('button', { type: 'button', title: 'Save the chart as shown, with its legend, as PNG' }, 'PNG');
    png.addEventListener('click', () => this.download('png'));
    tools.append(link, svg, png);
    bar.append(this.views, fitLabel, this.unitsControl, this.resetButton, this.showAll, this.windowText, el('span', { class: 'spacer' }), tools);
  };

  R.setView = function (view) {
    this.state.view = view;
    this.redraw();
  };

  R.setUnits = function (units) {
    this.state.units = units;
    this.leave();
    this.redraw();
    this.unitsChanged();
  };

  // The units changed: every figure shown in them again.
  R.unitsChanged = function () {
    this.factsLine.textContent = this.factsText();
    this.renderRows();
    this.drawIcicle();
    if (this.compare) this.compare.render();
  };

  R.updateToolbar = function () {
    const st = this.state;
    this.views.set(st.view);
    this.unitsControl.set(st.units === 'hp2ps' ? 'decimal' : st.units);
    this.fitBox.checked = st.fitY;
    this.resetButton.disabled = !st.window;
    this.showAll.disabled = st.hidden.size === 0;
    const [a, b] = this.span();
    this.windowText.textContent = st.window ? 'Showing ' + H.when(a, this.d.sampleUnit) + ' to ' + H.when(b, this.d.sampleUnit) : '';
    if (this.summary) { H.roveReset(this.toolbarItems()); this.describe(); }
  };
})(window.hp2ps);
