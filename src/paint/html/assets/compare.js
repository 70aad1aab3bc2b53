// hp2ps's page: several runs compared (`hp2ps --format html -o page.html a.hp b.hp`).
//
// The charts share their axes and a band's colour follows its name (the page was written
// with --uniform-scale both and --colour-by name). Pointing at one chart puts the
// crosshair at the same time in the others, zooming one zooms them all, and the
// difference view lists every band by name with its peak and area in each run (from each
// run's table: --summary's numbers) and its value at the pointer's time, the changes
// against the first run, the bands that grew the most first. Bands match by name, the
// .hp's stack number left out ("(296)main" is "main"); a -hc profile's bands can match by
// their innermost cost centres instead, so that a stack whose callers were renamed still
// finds its counterpart.
(function (H) {
  'use strict';
  const { el, breakable, readable, seconds, thousands, TABLE_ROWS } = H;

  function Compare(runs, box) {
    this.runs = runs;
    this.box = box;
    this.depth = 0;
    this.sort = { key: 'peakd' + (runs.length - 1), dir: -1 };
    this.limit = TABLE_ROWS;
    runs.forEach((r) => { r.compare = this; });
    box.hidden = false;
    const files = el('ol');
    for (const r of runs) files.appendChild(el('li', {}, r.d.file || 'stdin'));
    this.head = el('p', { class: 'hint' });
    const bar = el('div', { class: 'toolbar' });
    if (runs.every((r) => r.stacks())) {
      const by = el('select', { 'aria-label': 'Match bands by' });
      ['name', 'innermost cost centre', 'innermost 2 cost centres', 'innermost 3 cost centres'].forEach((text, i) => by.appendChild(el('option', { value: String(i) }, text)));
      by.addEventListener('change', () => { this.depth = +by.value; this.build(); });
      const label = el('label', {}, 'Match bands by ');
      label.appendChild(by);
      bar.appendChild(label);
    }
    this.table = el('table', { class: 'bands', id: 'diff' });
    const scroll = el('div', { class: 'table-box' });
    scroll.appendChild(this.table);
    this.more = el('button', { type: 'button', class: 'more-rows' });
    this.more.addEventListener('click', () => { this.limit = Infinity; this.render(); });
    box.append(el('h1', {}, runs.length + ' runs compared'), files, this.head, bar, scroll, this.more);
    this.build();
  }
  H.Compare = Compare;
  const C = Compare.prototype;

  // A band's key: its name without the .hp's stack number, or its innermost cost centres.
  C.key = function (name) {
    return this.depth ? H.frames(name).slice(0, this.depth).join('/') : name.replace(/^\(\d+\)/, '');
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
    this.pointed(null, null);
  };

  // The peak of a run's rows together: a row's own (every sample), else the highest sum
  // over the samples this page has of them (NaN when it lacks a row's values).
  C.peakOf = function (run, rows) {
    if (rows.length === 0) return 0;
    if (rows.length === 1) return run.d.table.peak[rows[0]];
    const bands = rows.map((r) => run.byRow.get(r));
    if (bands.some((b) => !b)) return NaN;
    let top = 0;
    for (let i = 0; i < run.base.times.length; i++) {
      let sum = 0;
      for (const b of bands) sum += b.base[i];
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
    for (const r of this.runs) if (r !== from) r.crossLine.setAttribute('visibility', 'hidden');
  };

  C.zoomed = function (from) {
    const w = from.state.window;
    for (const r of this.runs) if (r !== from) r.zoomTo(w ? w[0] : null, w ? w[1] : null, true);
  };

  // The columns: for each number, each run's, then each later run's change from the
  // first.
  C.columns = function () {
    const n = this.runs.length;
    const unit = this.runs[0].d.valueUnit;
    const cols = [];
    for (const [what, label, title] of [
      ['peak', 'Peak', 'The highest value in one sample (--summary\'s peak)'],
      ['area', 'Area', 'The values integrated over time (--summary\'s area)'],
      ['at', 'At ' + (this.t === undefined || this.t === null ? '–' : seconds(this.t)), 'The value at the pointer\'s time, at each run\'s nearest sample'],
    ]) {
      // Areas are not whole numbers of bytes: rounded.
      const fmt = what === 'area' ? (v) => thousands(Math.round(v)) : (v) => readable(v, unit)[0];
      for (let i = 0; i < n; i++) cols.push({ key: what + i, label: label + ' ' + (i + 1), title: title + ', run ' + (i + 1), fmt, get: (row) => row[what][i] });
      for (let i = 1; i < n; i++) cols.push({ key: what + 'd' + i, delta: true, label: 'Δ ' + label.toLowerCase() + (n > 2 ? ' ' + (i + 1) : ''), title: 'Run ' + (i + 1) + ' minus run 1', fmt, get: (row) => (row[what] ? row[what][i] - row[what][0] : NaN) });
    }
    return cols;
  };

  C.render = function () {
    const cols = this.columns();
    const unit = this.runs[0].d.valueUnit;
    const sortKey = this.sort.key;
    const col = cols.find((c) => c.key === sortKey);
    const d = this.sort.dir;
    const rows = this.rows.slice();
    const byKey = sortKey === 'key';
    rows.sort((a, b) => H.order(byKey ? a.key : col.get(a), byKey ? b.key : col.get(b), d, a.key < b.key ? -1 : 1));
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
    for (const c of cols) head.appendChild(th(c.key, c.label, c.title + (unit ? ', in ' + unit : ''), true));
    const body = el('tbody');
    for (const row of rows.slice(0, this.limit)) {
      const tr = el('tr', { 'data-key': row.key, tabindex: '0' });
      const sw = el('td');
      const shown = this.runs.map((r, n) => (row.rows[n].length === 1 ? r.bandOfRow(row.rows[n][0]) : null));
      const n = shown.findIndex((k, i) => k !== null && this.runs[i].bands[k].row !== null);
      if (n >= 0) sw.appendChild(this.runs[n].swatch(this.runs[n].bands[shown[n]]));
      tr.append(sw, breakable(el('td', { class: 'name' }), row.key));
      for (const c of cols) {
        const v = c.get(row);
        const text = v === v ? (c.delta && v > 0 ? '+' : '') + c.fmt(v) : '–';
        tr.appendChild(el('td', { class: 'num' + (c.delta ? (v > 0 ? ' up' : v < 0 ? ' down' : '') : ''), 'data-col': c.key, 'data-value': String(v) }, text));
      }
      tr.addEventListener('click', () => this.pick(row, tr));
      body.appendChild(tr);
    }
    const thead = el('thead');
    thead.appendChild(head);
    this.table.replaceChildren(el('caption', {}, 'Every band of the ' + this.runs.length + ' runs, matched by ' +
      (this.depth ? 'their innermost ' + this.depth + ' cost centre' + (this.depth > 1 ? 's' : '') : 'name') +
      ', with the changes from run 1, the biggest growth first; a row highlights its band in every chart.'), thead, body);
    this.more.hidden = rows.length <= this.limit;
    this.more.textContent = 'Show all ' + rows.length + ' rows';
    this.head.textContent = 'The charts share their axes and colours. Point at one: the others show the same time. Zoom one: the others follow.';
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
