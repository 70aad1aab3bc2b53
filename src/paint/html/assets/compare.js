// hp2ps's page: several runs compared (`hp2ps --format html -o page.html a.hp b.hp`).
//
// The charts share their axes, and a band matched across the runs has one colour in
// every run (src/layout/looks.rs: shared_colours). They stand side by side (or one above
// the other), driven by one toolbar: pointing at one chart puts the crosshair at the
// same time in the others, zooming one zooms them all. The difference view lists every
// band with its peak and area in each run (from each run's table: --summary's numbers)
// and its value at the pointer's time, the changes against the first run, the bands that
// grew the most first. Bands match by name without the .hp's stack number ("(296)main"
// is "main") and without the " #2" an eventlog adds to stacks that -L cut to one name
// (a .hp names them once), so a cut stack is one band in every run; a -hc profile's bands
// can match by their innermost cost centres instead, so that a stack whose callers were
// renamed still finds its counterpart. A key with several bands in a run counts them
// together.
(function (H) {
  'use strict';
  const { el, amount, thousands, TABLE_ROWS } = H;

  function Compare(runs, box) {
    this.runs = runs;
    this.box = box;
    this.depth = 0;
    // The biggest change first, grown or shrunk: the leak's own band at the top.
    this.sort = { key: 'peakd' + (runs.length - 1), dir: -1 };
    this.limit = TABLE_ROWS;
    this.layout = 'side';
    // The runs share their axes until the reader fits them.
    runs.forEach((r) => { r.compare = this; r.state.fitY = false; });
    box.hidden = false;
    const files = el('ol', { class: 'files' });
    runs.forEach((r, i) => {
      const li = el('li', {});
      li.append(el('span', { class: 'n' }, (i + 1) + '.'), document.createTextNode(r.d.file || 'stdin'));
      const f = r.facts;
      const bits = [f.breakdown, f.ghc ? 'GHC ' + f.ghc : null].filter(Boolean);
      if (bits.length) li.appendChild(el('span', { class: 'muted' }, ' (' + bits.join(', ') + ')'));
      files.appendChild(li);
    });
    const bar = el('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Every chart' });
    this.views = H.segmented('View', [['stacked', 'Stacked', 'The bands stacked'], ['normal', '100 %', 'Each band\'s share of the total'], ['lines', 'Lines', 'One line per band']],
      (v) => this.each((r) => r.setView(v)), 'view');
    const bytes = runs[0].d.valueUnit === 'bytes';
    this.units = H.segmented('Units', [['binary', bytes ? 'MiB' : 'binary', 'Binary units (powers of 1024)'], ['decimal', bytes ? 'MB' : 'decimal', 'Decimal units (powers of 1000)']],
      (u) => this.each((r) => r.setUnits(u)), 'units');
    const fit = el('input', { type: 'checkbox' });
    fit.addEventListener('change', () => this.each((r) => { r.state.fitY = fit.checked; r.redraw(); }));
    const fitLabel = el('label', { title: 'Scale each y axis to what it shows' });
    fitLabel.append(fit, document.createTextNode('Fit y'));
    this.zoomOut = el('button', { type: 'button', disabled: '', title: 'Show the whole runs' }, 'Zoom out');
    this.zoomOut.addEventListener('click', () => runs[0].zoomTo(null));
    this.arrange = H.segmented('Layout', [['side', 'Side by side', 'The charts side by side'], ['stacked', 'One above the other', 'Each chart the page\'s width, one above the other, each with its table']],
      (l) => this.setLayout(l));
    this.search = el('input', { type: 'search', placeholder: 'Filter bands: text, or /regex/', 'aria-label': 'Show the bands whose names match, in every run', spellcheck: 'false', autocomplete: 'off' });
    this.search.addEventListener('input', () => this.each((r) => { r.searchBox.value = this.search.value; r.setFilter(this.search.value); }));
    bar.append(this.views, fitLabel, this.units, this.zoomOut, this.arrange, this.search);
    if (runs.every((r) => r.stacks())) {
      const by = el('select', { 'aria-label': 'Match bands by' });
      ['name', 'innermost cost centre', 'innermost 2 cost centres', 'innermost 3 cost centres'].forEach((text, i) => by.appendChild(el('option', { value: String(i) }, text)));
      by.addEventListener('change', () => { this.depth = +by.value; this.build(); });
      this.matchBy = by;
      const label = el('label', {}, 'Match bands by ');
      label.appendChild(by);
      bar.appendChild(label);
    }
    const theme = el('button', { type: 'button', class: 'theme', title: 'Light or dark (the system\'s setting until chosen)', 'aria-label': 'Light or dark' }, '◐');
    theme.addEventListener('click', () => H.toggleTheme());
    bar.appendChild(theme);
    box.append(el('h1', {}, runs.length + ' runs compared'), files, bar);
    // The difference view, after the charts.
    this.section = el('section', { class: 'compare-diff', 'aria-label': 'Differences' });
    this.table = el('table', { class: 'bands diff', id: 'diff' });
    this.more = el('button', { type: 'button', class: 'more-rows' });
    this.more.addEventListener('click', () => { this.limit = Infinity; this.render(); });
    this.note = el('p', { class: 'suffix-note' });
    const csv = el('button', { type: 'button', class: 'csv', title: 'Save this table as CSV: the rows shown by the filter, the numbers in the units shown' }, 'CSV');
    csv.addEventListener('click', () => H.save(this.csv(), 'text/csv', 'hp2ps-compare.csv'));
    const head = el('div', { class: 'table-head' });
    head.append(el('h2', {}, 'What changed'), csv);
    this.section.append(head, this.note, this.table, this.more);
    this.runsBox = runs[0].section.parentNode;
    this.runsBox.after(this.section);
    this.setLayout(this.layout);
    this.build();
    // Side by side, the runs' headers take one height, so that the charts line up.
    this.alignHeads();
    if (window.ResizeObserver) new ResizeObserver(() => this.alignHeads()).observe(this.runsBox);
  }
  H.Compare = Compare;
  const C = Compare.prototype;

  C.each = function (f) {
    this.runs.forEach(f);
    this.sync();
  };

  // The shared toolbar shows the first run's state.
  C.sync = function () {
    const st = this.runs[0].state;
    this.views.set(st.view);
    this.units.set(st.units === 'hp2ps' ? 'decimal' : st.units);
    this.zoomOut.disabled = !st.window;
    this.arrange.set(this.layout);
  };

  C.alignHeads = function () {
    const heads = this.runs.map((r) => r.section.querySelector('.run-head'));
    heads.forEach((h) => { h.style.minHeight = ''; });
    if (this.layout !== 'side') return;
    const tallest = Math.max(...heads.map((h) => h.getBoundingClientRect().height));
    heads.forEach((h) => { h.style.minHeight = tallest + 'px'; });
  };

  C.setLayout = function (layout) {
    this.layout = layout;
    const side = layout === 'side';
    this.runsBox.classList.toggle('side', side);
    this.runsBox.style.setProperty('--columns', String(Math.min(this.runs.length, 2)));
    this.sync();
    this.runs.forEach((r) => r.saveState());
    if (this.runs[0].section.querySelector('.run-head').childElementCount) this.alignHeads();
  };

  // A band's key: its name without the .hp's stack number and an eventlog's " #k", or its
  // innermost cost centres.
  C.key = function (name) {
    return this.depth ? H.frames(name).slice(0, this.depth).join('/') : name.replace(/^\(\d+\)/, '').replace(/ #\d+$/, '');
  };

  // Every key of every run, with each run's rows of it.
  C.build = function () {
    const keys = new Map();
    this.runs.forEach((run, n) => run.d.table.name.forEach((name, r) => {
      const key = this.key(name);
      if (!keys.has(key)) keys.set(key, this.runs.map(() => []));
      keys.get(key)[n].push(r);
    }));
    this.rows = [...keys].map(([key, rows]) => ({ key, rows }));
    for (const row of this.rows) {
      row.peak = row.rows.map((rs, n) => this.peakOf(this.runs[n], rs));
      row.area = row.rows.map((rs, n) => rs.reduce((a, r) => a + this.runs[n].d.table.area[r], 0));
    }
    const cut = this.runs.some((r) => r.d.table.name.some((n) => / #\d+$/.test(n)));
    this.note.textContent = 'Bands are matched by ' + (this.depth ? 'their innermost ' + this.depth + ' cost centre' + (this.depth > 1 ? 's' : '') : 'name (without a .hp\'s stack number, "(296)")') +
      '; a run\'s bands with one key count together.' + (cut && !this.depth ? ' A name ending in "…" was cut by -L; an eventlog tells the stacks it cut to one name apart as #1, #2, …, a .hp names them once: they are one band here.' : '');
    this.pointed(null, null);
  };

  // The peak of a run's rows together: a row's own (every sample), else the highest sum
  // over the samples this page has of them (NaN when it lacks a row's values).
  C.peakOf = function (run, rows) {
    if (rows.length === 0) return 0;
    if (rows.length === 1) return run.d.table.peak[rows[0]];
    const bands = rows.map((r) => run.byRow.get(r));
    if (bands.some((b) => !b)) return NaN;
    const src = bands.some((b) => b.j !== undefined) && run.restBase ? run.restBase : run.base;
    let top = 0;
    for (let i = 0; i < src.times.length; i++) {
      let sum = 0;
      for (const b of bands) sum += b.j !== undefined ? src.rest[b.j][i] : src.values[b.k][i];
      top = Math.max(top, sum);
    }
    return top;
  };

  // The pointer is at time t in a run: the crosshair in the others, and the "At" numbers
  // once it rests.
  C.pointed = function (from, t) {
    for (const r of this.runs) if (r !== from && t !== null) r.pointedElsewhere(t);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      for (const row of this.rows) {
        row.at = row.rows.map((rs, n) => {
          const run = this.runs[n];
          const i = run.atSample();
          if (i === null) return NaN;
          let sum = 0;
          for (const r of rs) {
            const b = run.byRow.get(r);
            sum += b ? b.values[i] : NaN;
          }
          return sum;
        });
      }
      this.t = t === null ? this.t : t;
      this.render();
    }, t === null ? 0 : H.SETTLE);
  };

  C.left = function (from) {
    for (const r of this.runs) if (r !== from) r.leftElsewhere();
  };

  C.zoomed = function (from) {
    const w = from.state.window;
    for (const r of this.runs) if (r !== from) r.zoomTo(w ? w[0] : null, w ? w[1] : null, true);
    this.sync();
  };

  // A run's filter changed: the others and the shared box take it.
  C.filtered = function (from, text) {
    if (this.search.value !== text) this.search.value = text;
    this.render();
  };

  // The columns: for each number, each run's, then each later run's change from the
  // first.
  C.columns = function () {
    const n = this.runs.length;
    const run = this.runs[0];
    const unit = run.d.valueUnit;
    const units = run.state.units;
    const cols = [];
    for (const [what, label, title] of [
      ['peak', 'Peak', 'The highest value in one sample (--summary\'s peak)'],
      ['area', 'Area', 'The values integrated over time (--summary\'s area), in ' + (unit || 'the value unit') + ' × ' + (run.d.sampleUnit || 'the sample unit')],
      ['at', 'At ' + (this.t === undefined || this.t === null ? '–' : H.when(this.t, run.d.sampleUnit)), 'The value at the pointer\'s time, at each run\'s nearest sample'],
    ]) {
      const fmt = what === 'area' ? (v) => thousands(Math.round(v)) : (v) => amount(v, unit, units);
      for (let i = 0; i < n; i++) cols.push({ key: what + i, label: label + ' ' + (i + 1), title: title + ', run ' + (i + 1), fmt, get: (row) => row[what][i] });
      for (let i = 1; i < n; i++) cols.push({ key: what + 'd' + i, delta: true, label: 'Δ ' + label.toLowerCase() + (n > 2 ? ' ' + (i + 1) : ''), title: 'Run ' + (i + 1) + ' minus run 1; sorted by the size of the change, grown or shrunk', fmt, get: (row) => (row[what] ? row[what][i] - row[what][0] : NaN) });
    }
    return cols;
  };

  // The swatch of a row: its band's colour, in the first run that draws it on its own.
  C.swatchOf = function (row) {
    for (let n = 0; n < this.runs.length; n++) {
      const run = this.runs[n];
      for (const r of row.rows[n]) {
        const k = run.bandOfRow(r);
        if (k !== null && run.bands[k].row !== null) return run.swatch(run.bands[k]);
      }
    }
    return null;
  };

  C.render = function () {
    const cols = this.columns();
    const unit = this.runs[0].d.valueUnit;
    const sortKey = this.sort.key;
    const col = cols.find((c) => c.key === sortKey);
    const d = this.sort.dir;
    const run0 = this.runs[0];
    const rows = this.rows.filter((row) => run0.matches(row.key) || this.runs.some((r, n) => row.rows[n].some((i) => r.matches(r.d.table.name[i]))));
    const byKey = sortKey === 'key';
    // A change sorts by its size, grown or shrunk alike.
    const val = (row) => (byKey ? row.key : col.delta ? Math.abs(col.get(row)) : col.get(row));
    rows.sort((a, b) => H.order(val(a), val(b), d, a.key < b.key ? -1 : 1));
    this.shownRows = rows;
    const head = el('tr');
    const th = (key, label, title, num) => {
      const h = H.sortHeader(label, title, num, () => {
        this.sort = { key, dir: this.sort.key === key ? -d : key === 'key' ? 1 : -1 };
        this.render();
      });
      H.sorted(h, key === sortKey && d);
      return h;
    };
    head.append(el('th'), th('key', 'Band', 'The band\'s name, as the runs match it'));
    for (const c of cols) {
      const h = th(c.key, c.label, c.title, true);
      if (!c.delta && !c.key.startsWith('peak')) h.classList.add('per-run');
      head.appendChild(h);
    }
    const body = el('tbody');
    for (const row of rows.slice(0, this.limit)) {
      const tr = el('tr', { 'data-key': row.key, tabindex: '0' });
      const sw = el('td');
      const swatch = this.swatchOf(row);
      if (swatch) sw.appendChild(swatch);
      const counts = row.rows.map((rs) => rs.length);
      const name = H.bandName(el('td', { class: 'name' }), row.key);
      if (counts.some((c) => c > 1)) name.appendChild(el('span', { class: 'nm-suffix', title: 'Bands of this key in each run, counted together' }, ' (' + counts.join(' + ') + ' bands)'));
      tr.append(sw, name);
      for (const c of cols) {
        const v = c.get(row);
        const text = v === v ? (c.delta && v > 0 ? '+' : '') + c.fmt(v) : '–';
        tr.appendChild(el('td', { class: 'num' + (c.delta ? (v > 0 ? ' up' : v < 0 ? ' down' : '') : c.key.startsWith('peak') ? '' : ' per-run'), 'data-col': c.key, 'data-value': String(v), title: v === v && !c.key.startsWith('area') ? thousands(Math.round(v)) + (unit ? ' ' + unit : '') : undefined }, text));
      }
      tr.addEventListener('click', () => this.pick(row, tr));
      tr.addEventListener('keydown', (e) => { if (e.target === tr && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); this.pick(row, tr); } });
      body.appendChild(tr);
    }
    const thead = el('thead');
    thead.appendChild(head);
    this.table.replaceChildren(el('caption', {}, 'Every band of the ' + this.runs.length + ' runs, with the changes from run 1, the biggest change first (grown or shrunk); a row highlights its band in every chart.'), thead, body);
    this.more.hidden = rows.length <= this.limit;
    this.more.textContent = 'Show all ' + rows.length + ' rows';
    H.roveRows(this.table);
    this.sync();
  };

  // The table as CSV: its rows in its order (those the filter shows), a column per
  // number in the unit shown (in its header).
  C.csv = function () {
    const run = this.runs[0];
    const cols = this.columns();
    const head = ['Band'];
    const units = cols.map((c) => (c.key.startsWith('area') ? [1, run.d.valueUnit + ' × ' + run.d.sampleUnit] : run.csvUnit(this.shownRows.map((r) => c.get(r)))));
    cols.forEach((c, i) => head.push(c.label + (units[i][1] ? ' (' + units[i][1] + ')' : '')));
    const lines = [head];
    for (const row of this.shownRows) lines.push([row.key].concat(cols.map((c, i) => H.csvNumber(c.get(row), units[i][0]))));
    return H.csvText(lines);
  };

  // A row highlights its band in every chart where it is drawn; again: nothing.
  C.pick = function (row, tr) {
    const again = this.picked === row.key;
    this.picked = again ? null : row.key;
    this.table.querySelectorAll('tr.picked').forEach((e) => e.classList.remove('picked'));
    if (!again) tr.classList.add('picked');
    this.runs.forEach((run, n) => {
      const rs = row.rows[n];
      run.state.picked = again || rs.length !== 1 ? null : run.bandOfRow(rs[0]);
      run.applyHighlight();
    });
  };
})(window.hp2ps);
