// hp2ps's page: the band table, every band of the profile with its numbers: the whole
// run's (--summary's, over every sample) or, zoomed, the window's.
(function (H) {
  'use strict';
  const { TABLE_ROWS, FATES, FATE_TEXT, coord, thousands, amount, seconds, el, svgEl } = H;
  const R = H.Run.prototype;

  // ---- The band table ----

  const COLUMNS = [
    ['colour', '', 'The colour of the band in the chart; for a band merged into OTHER, OTHER\'s'],
    ['name', 'Band', 'The band\'s name (cost centre stack, closure, type, ...) as the profile gives it'],
    ['peak', 'Peak', 'The band\'s highest value in one sample, in VALUE_UNIT (exact figure; --summary\'s peak)'],
    ['peakTime', 'When', 'The time of the first sample with that value, in SAMPLE_UNIT'],
    ['share', 'Share', 'The band\'s area (its values integrated over time, by trapezoids) as a share of the area of all bands, in percent (--summary\'s share)'],
    ['slope', 'Growth', 'The slope of the least-squares line through the band\'s values over time, in VALUE_UNIT per SAMPLE_ONE; absent samples count as 0 (what --sort growth orders by)'],
    ['mean', 'Mean', 'The band\'s area divided by the time span: its average value, in VALUE_UNIT'],
    ['at', 'At', 'The band\'s value at the sample the pointer was last at in the chart, in VALUE_UNIT'],
    ['spark', 'Over time', 'The band over the time shown: its highest value in each of 40 equal slices of the samples, scaled to its own peak'],
    ['fate', 'In the chart', 'drawn: a band of its own; in OTHER: merged into OTHER by the band limit (-m); trace: left out by trace elimination (-t); dropped: a negative -m. "draw" adds a band of OTHER or a trace to the chart'],
  ];
  const SORTED = { name: 1, peak: 1, peakTime: 1, share: 1, slope: 1, mean: 1, at: 1, fate: 1 };
  const NUMERIC = { peak: 1, peakTime: 1, share: 1, slope: 1, mean: 1, at: 1 };

  R.buildTable = function () {
    const t = this.d.table;
    const unit = this.d.valueUnit;
    const tunit = this.d.sampleUnit;
    // "bytes per second": the sample unit of one.
    const one = tunit ? tunit.replace(/s$/, '') : 'sample unit';
    const subst = (s) => s.replace(/VALUE_UNIT/g, unit || 'the value unit').replace(/SAMPLE_UNIT/g, tunit || 'the sample unit').replace(/SAMPLE_ONE/g, one);
    this.sort = { key: 'share', dir: -1 };
    this.limit = TABLE_ROWS;
    this.drawnWindow = 'null';
    this.caption = el('caption');
    this.tableRows();
    const head = el('thead');
    const tr = el('tr');
    this.headers = {};
    const info = ['info', 'Info', 'What the eventlog and the program say about the band: a -hi band\'s info table (its IPE entry: table, closure type, Haskell type, binding, module, source) and symbol'];
    for (const [key, label, title] of COLUMNS.concat(t.info ? [info] : [])) {
      let th;
      if (SORTED[key]) {
        th = H.sortHeader(label + (key === 'peakTime' ? this.unitOf(key) : ''), subst(title), NUMERIC[key], () => this.sortBy(key));
        this.headers[key] = th;
      } else th = el('th', { scope: 'col', title: subst(title) }, label);
      th.classList.add('c-' + key);
      tr.appendChild(th);
    }
    head.appendChild(tr);
    this.tbody = el('tbody');
    this.tfoot = el('tfoot');
    this.table.append(this.caption, head, this.tbody, this.tfoot);
    this.more = el('button', { type: 'button', class: 'more-rows' });
    this.more.addEventListener('click', () => { this.limit = Infinity; this.renderRows(); });
    this.table.after(this.more);
    const csv = el('button', { type: 'button', class: 'csv', title: 'Save the table as CSV: the rows the filter shows, in this order, the numbers of the time shown in the units shown' }, 'CSV');
    csv.addEventListener('click', () => H.save(this.csv(), 'text/csv', (this.d.file || 'hp2ps').replace(/\.[^.]*$/, '') + '-bands.csv'));
    this.table.before(csv);
    this.numbers();
    this.sortBy('share', -1);
  };

  // The rows the data's table has, and the caption of its whole-run numbers (again when
  // new data comes: a live page's table grows).
  R.tableRows = function () {
    const t = this.d.table;
    this.rowsOrder = t.name.map((_, i) => i);
    const counts = {};
    for (const f of t.fate) counts[f] = (counts[f] || 0) + 1;
    const left = this.d.tableLeftOut;
    this.wholeCaption = (left ? 'The ' + t.name.length + ' biggest bands of the profile\'s ' + (t.name.length + left.bands) : 'Every band of the profile: ' + t.name.length) + ' (' +
      ['drawn', 'other', 'trace', 'dropped'].filter((f) => counts[f]).map((f) => counts[f] + ' ' + FATES[f]).join(', ') +
      '), over every sample. Sort by a column with its header; a row highlights its band in the chart.';
  };

  R.unitOf = function (key) {
    const d = this.d;
    const [v, t] = [d.valueUnit, d.sampleUnit];
    if (key === 'peak' || key === 'mean' || key === 'at') return v ? ' (' + v + ')' : '';
    if (key === 'peakTime') return t ? ' (' + t + ')' : '';
    if (key === 'slope') return v && t ? ' (' + v + '/' + t.replace(/s$/, '') + ')' : '';
    return '';
  };

  // The table's numbers, row by row: the whole run's from the data (every sample), or the
  // window's from the samples the page has in it (NaN for a band whose values the page
  // does not carry); and each band's value at the pointer's last sample.
  R.numbers = function () {
    const t = this.d.table;
    const n = t.name.length;
    const nums = { name: t.name, fate: t.fate, peak: [], peakTime: [], share: [], slope: [], mean: [], spark: [], at: [] };
    this.nums = nums;
    const base = this.base.times;
    if (!this.state.window) {
      const span = base.length > 1 ? base[base.length - 1] - base[0] : 0;
      for (let r = 0; r < n; r++) {
        for (const k of ['peak', 'peakTime', 'share', 'slope', 'spark']) nums[k][r] = t[k][r];
        nums.mean[r] = span > 0 ? t.area[r] / span : t.peak[r];
      }
    } else this.windowNumbers();
    this.atNumbers();
  };

  R.windowNumbers = function () {
    const t = this.d.table;
    const nums = this.nums;
    const ts = this.times;
    const [i0, i1] = this.inside();
    const span = i1 > i0 ? ts[i1] - ts[i0] : 0;
    const weight = (i) => ((i > i0 ? ts[i] - ts[i - 1] : 0) + (i < i1 ? ts[i + 1] - ts[i] : 0)) / 2;
    const area = (v) => { let a = 0; for (let i = i0; i <= i1; i++) a += v[i] * weight(i); return a; };
    // The window's total area: every drawn band's (OTHER holds the merged bands) and the
    // traces' when the page has them.
    let total = 0;
    for (const b of this.drawn) total += area(b.raw);
    for (const b of this.rest) if (t.fate[b.row] === 'trace') total += area(b.values);
    let mt = 0;
    for (let i = i0; i <= i1; i++) mt += ts[i];
    mt /= Math.max(1, i1 - i0 + 1);
    for (let r = 0; r < t.name.length; r++) {
      const band = this.byRow.get(r);
      if (!band || !band.values || i1 < i0) {
        for (const k of ['peak', 'peakTime', 'share', 'slope', 'mean']) nums[k][r] = NaN;
        nums.spark[r] = [];
        continue;
      }
      const v = band.values;
      let [peak, when, mv] = [-Infinity, ts[i0], 0];
      for (let i = i0; i <= i1; i++) {
        if (v[i] > peak) { peak = v[i]; when = ts[i]; }
        mv += v[i];
      }
      mv /= i1 - i0 + 1;
      let [num, den] = [0, 0];
      for (let i = i0; i <= i1; i++) { num += (ts[i] - mt) * (v[i] - mv); den += (ts[i] - mt) * (ts[i] - mt); }
      const a = area(v);
      nums.peak[r] = peak > 0 ? peak : 0;
      nums.peakTime[r] = peak > 0 ? when : ts[i0];
      nums.share[r] = total ? a / total : 0;
      nums.slope[r] = den > 0 ? num / den : 0;
      nums.mean[r] = span > 0 ? a / span : v[i0];
      nums.spark[r] = this.sparkOf(v, i0, i1);
    }
  };

  // A band's highest value in each of 40 slices of samples i0..i1, in percent of the
  // highest (the data's sparklines, for a window).
  R.sparkOf = function (v, i0, i1) {
    const n = i1 - i0 + 1;
    const m = Math.min(40, n);
    const out = [];
    for (let k = 0; k < m; k++) {
      let top = 0;
      for (let i = i0 + Math.floor((k * n) / m); i < i0 + Math.floor(((k + 1) * n) / m); i++) top = Math.max(top, v[i]);
      out.push(top);
    }
    const top = Math.max(0, ...out);
    return out.map((x) => (top > 0 ? Math.round((x / top) * 100) : 0));
  };

  // Each band's value at the pointer's last sample (NaN without one, or without its values).
  R.atNumbers = function () {
    const i = this.atSample();
    for (let r = 0; r < this.d.table.name.length; r++) {
      const band = this.byRow.get(r);
      this.nums.at[r] = band && band.values && i !== null ? band.values[i] : NaN;
    }
    const th = this.headers.at;
    if (th) th.dataset.label = th.firstChild.textContent = 'At ' + (i === null ? '–' : H.when(this.times[i], this.d.sampleUnit));
  };

  // The sample nearest the pointer's last time, in the samples drawn now (null: none).
  R.atSample = function () {
    const t = this.state.atTime;
    return t === null || this.times.length === 0 ? null : this.nearest(t);
  };

  // Sorts by a column: numbers largest first, names A to Z; again: the other way. Rows
  // without a number go last.
  R.sortBy = function (key, dir) {
    const same = this.sort.key === key;
    const d = dir || (same ? -this.sort.dir : key === 'name' || key === 'fate' ? 1 : -1);
    this.sort = { key, dir: d };
    const col = this.nums[key];
    this.rowsOrder.sort((a, b) => H.order(col[a], col[b], d, a - b));
    for (const k in this.headers) H.sorted(this.headers[k], k === key && d);
    this.renderRows();
  };

  // The drawn band that shows table row r: its own (drawn, or added), or OTHER for a
  // merged one.
  R.bandOfRow = function (r) {
    const own = this.bands.find((b) => b.row === r && (b.added || this.d.table.fate[r] === 'drawn'));
    if (own) return own.k;
    if (this.d.table.fate[r] !== 'other') return null;
    return this.other ? this.other.k : null;
  };

  // The caption says which numbers the table shows.
  R.captionText = function () {
    if (!this.state.window) return this.wholeCaption;
    const [a, b] = this.span();
    const [i0, i1] = this.inside();
    return 'Numbers for ' + seconds(a) + ' to ' + seconds(b) + ' ' + this.d.sampleUnit + ', the window shown: over its ' +
      Math.max(0, i1 - i0 + 1) + ' samples in this page' + (this.everySample() ? ' (every sample of the profile there)' : ' (not every sample of the profile: --max-points 0 keeps all)') +
      (this.rest.length || this.bands.length === this.d.table.name.length ? '.' : '; bands in OTHER or left out as traces have no values here (-m0 draws every band).');
  };

  // A value in the page's units, its exact figure in the title.
  R.valueCell = function (key, v, text) {
    const unit = this.d.valueUnit;
    return el('td', { class: 'num', 'data-value': String(v), title: v === v ? thousands(Math.round(v)) + (unit ? ' ' + unit : '') : undefined }, text);
  };

  R.renderRows = function () {
    const t = this.d.table;
    const nums = this.nums;
    const unit = this.d.valueUnit;
    const units = this.state.units;
    const perTime = '/' + (this.d.sampleUnit === 'seconds' ? 's' : this.d.sampleUnit);
    this.caption.textContent = this.captionText();
    const rows = this.rowsOrder.filter((r) => this.matches(t.name[r]));
    const shown = rows.slice(0, this.limit);
    this.atCells = new Map();
    const made = shown.map((r) => {
      const tr = el('tr', { tabindex: '-1', class: t.fate[r] === 'drawn' || this.isAdded(r) ? '' : 'gone' });
      tr.dataset.name = t.name[r];
      const k = this.bandOfRow(r);
      const sw = el('td', { class: 'c-colour' });
      if (k !== null) sw.appendChild(this.swatch(this.bands[k]));
      const num = (key, text) => {
        const v = nums[key][r];
        return el('td', { class: 'num', 'data-value': String(v) }, v === v ? text(v) : '–');
      };
      const val = (key) => {
        const v = nums[key][r];
        return this.valueCell(key, v, v === v ? amount(v, unit, units) : '–');
      };
      const spark = svgEl('svg', { class: 'spark', viewBox: '0 0 40 10', preserveAspectRatio: 'none', 'aria-hidden': 'true' });
      const sp = nums.spark[r];
      spark.appendChild(svgEl('polyline', {
        points: sp.map((v, i) => coord(sp.length > 1 ? (i * 40) / (sp.length - 1) : 20) + ',' + coord(10 - v / 10)).join(' '),
      }));
      const sparkCell = el('td', { class: 'c-spark' });
      sparkCell.appendChild(spark);
      const at = val('at');
      at.classList.add('c-at');
      const mean = val('mean');
      mean.classList.add('c-mean');
      this.atCells.set(r, at);
      const slope = nums.slope[r];
      const growth = this.valueCell('slope', slope, slope === slope ? (slope > 0 ? '+' : '') + amount(slope, unit, units) + perTime : '–');
      if (slope === slope && slope !== 0) growth.classList.add(slope > 0 ? 'up' : 'down');
      tr.append(sw, H.bandName(el('td', { class: 'name' }), t.name[r]), val('peak'), num('peakTime', seconds),
        num('share', (v) => (v * 100).toFixed(2) + ' %'), growth, mean, at, sparkCell, this.fateCell(r));
      if (t.info) {
        const info = el('td', { class: 'info' });
        info.appendChild(el('div', {}, (t.info[r] || []).join('; ')));
        tr.appendChild(info);
      }
      if (this.state.pickedRow === r) tr.classList.add('picked');
      const pick = () => this.pick(r, tr);
      tr.addEventListener('click', pick);
      tr.addEventListener('keydown', (e) => {
        if (e.target !== tr) return;
        if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); pick(); }
        const draw = tr.querySelector('td.fate button');
        if ((e.key === 'd' || e.key === 'D') && draw) { e.preventDefault(); draw.click(); }
      });
      return tr;
    });
    const left = this.d.tableLeftOut;
    if (left && this.limit === Infinity || left && shown.length === rows.length) {
      const tr = el('tr', { class: 'summary' });
      tr.append(el('td'), el('td', { class: 'name', colspan: '9' }, 'and ' + thousands(left.bands) + ' smaller bands, not in this page (its size has a limit): together ' +
        (left.share * 100).toFixed(2) + ' % of the area; --summary lists every band'));
      made.push(tr);
    }
    this.tbody.replaceChildren(...made);
    this.tfoot.replaceChildren(this.totalRow());
    this.more.hidden = shown.length === rows.length;
    this.more.textContent = 'Show all ' + rows.length + ' rows';
    H.roveRows(this.table);
  };

  // Every band together: the profile's total, its peak (the header's and --summary's)
  // and its mean, of the whole run or the window.
  R.totalRow = function () {
    const unit = this.d.valueUnit;
    const units = this.state.units;
    const t = this.d.table;
    let peak;
    let mean;
    if (!this.state.window) {
      peak = this.peak();
      const ts = this.base.times;
      const span = ts.length > 1 ? ts[ts.length - 1] - ts[0] : 0;
      const area = t.area.reduce((a, v) => a + v, 0) + (this.d.tableLeftOut ? this.d.tableLeftOut.area : 0);
      mean = span > 0 ? area / span : peak ? peak.value : NaN;
    } else {
      const [i0, i1] = this.inside();
      const ts = this.times;
      const tot = this.totalsNow;
      let top = i0;
      let area = 0;
      for (let i = i0; i <= i1; i++) {
        if (tot[i] > tot[top]) top = i;
        if (i > i0) area += ((tot[i] + tot[i - 1]) / 2) * (ts[i] - ts[i - 1]);
      }
      peak = i1 >= i0 ? { value: tot[top], time: ts[top] } : null;
      mean = i1 > i0 ? area / (ts[i1] - ts[i0]) : peak ? peak.value : NaN;
    }
    const i = this.atSample();
    const at = i === null ? NaN : this.totalsNow[i];
    const tr = el('tr', { class: 'every', title: 'Every band of the profile together, traces included: --summary\'s total and peak' });
    const v = (x) => this.valueCell('', x, x === x ? amount(x, unit, units) : '–');
    tr.append(el('td'), el('td', { class: 'name' }, 'Every band together'), v(peak ? peak.value : NaN),
      el('td', { class: 'num' }, peak ? H.seconds(peak.time) : '–'), el('td', { class: 'num' }, '100.00 %'), el('td', { class: 'num' }, ''),
      v(mean), v(at), el('td', { class: 'c-spark' }), el('td', { class: 'fate' }));
    tr.children[6].classList.add('c-mean');
    tr.children[7].classList.add('c-at');
    if (this.d.table.info) tr.appendChild(el('td', { class: 'info' }));
    return tr;
  };

  // The unit a column of values is written in, in the CSV: the one the page would show
  // its largest in ([size, name]).
  R.csvUnit = function (values) {
    let top = 0;
    for (const v of values) if (v === v && Math.abs(v) > top) top = Math.abs(v);
    const u = H.unitFor(this.state.units === 'hp2ps' ? 'decimal' : this.state.units, this.d.valueUnit, top);
    return u || [1, this.d.valueUnit];
  };

  // The table as CSV: the rows the filter shows, in the table's order, with the numbers
  // it shows (the window's when zoomed), each column of values in one unit, named in its
  // header.
  R.csv = function () {
    const t = this.d.table;
    const nums = this.nums;
    const rows = this.rowsOrder.filter((r) => this.matches(t.name[r]));
    const tu = this.d.sampleUnit === 'seconds' ? 's' : this.d.sampleUnit;
    const u = {};
    for (const k of ['peak', 'mean', 'at', 'slope']) u[k] = this.csvUnit(rows.map((r) => nums[k][r]));
    const i = this.atSample();
    const head = ['Band', 'Peak (' + u.peak[1] + ')', 'When (' + tu + ')', 'Share (%)', 'Growth (' + u.slope[1] + '/' + tu + ')',
      'Mean (' + u.mean[1] + ')', 'At ' + (i === null ? '-' : H.seconds(this.times[i]) + ' ' + tu) + ' (' + u.at[1] + ')', 'In the chart'];
    const lines = [head];
    for (const r of rows) {
      lines.push([t.name[r], H.csvNumber(nums.peak[r], u.peak[0]), H.csvNumber(nums.peakTime[r], 1), H.csvNumber(nums.share[r] * 100, 1),
        H.csvNumber(nums.slope[r], u.slope[0]), H.csvNumber(nums.mean[r], u.mean[0]), H.csvNumber(nums.at[r], u.at[0]), FATE_TEXT[t.fate[r]]]);
    }
    return H.csvText(lines);
  };

  // Whether row r's band was added to the chart.
  R.isAdded = function (r) {
    return this.state.added.indexOf(this.d.table.name[r]) >= 0;
  };

  // What became of a row's band, and for a band of OTHER or a trace whose values the page
  // carries, a button that draws it on its own (or stops).
  R.fateCell = function (r) {
    const t = this.d.table;
    const td = el('td', { class: 'fate' }, FATE_TEXT[t.fate[r]]);
    if (t.fate[r] !== 'other' && t.fate[r] !== 'trace') return td;
    if (!this.byRow.has(r)) {
      td.title = 'Its values are not in this page (its budget of values is met): -m, --include or --max-points draw it';
      return td;
    }
    const added = this.isAdded(r);
    const thinned = this.restBase ? ' (from ' + this.restBase.times.length + ' of the samples: the page\'s budget of values is met)' : '';
    const b = el('button', { type: 'button', tabindex: '-1', title: (added ? 'Take it out of the chart again' : 'Draw it on its own, on top of the stack' + (t.fate[r] === 'other' ? ' (out of OTHER)' : '')) + thinned + ' (key: D)' }, added ? 'remove' : 'draw');
    b.addEventListener('click', (e) => { e.stopPropagation(); this.addBand(t.name[r], !added); });
    td.appendChild(b);
    return td;
  };

  // Draws the band of that name (a row of OTHER or a trace) on its own, or stops.
  R.addBand = function (name, on) {
    const added = this.state.added.filter((n) => n !== name);
    if (on) added.push(name);
    this.state.added = added;
    this.state.hot = null;
    this.addBands();
    if (this.tree) this.makeTree();
    this.fillLegend();
    this.redraw();
    this.renderRows();
    this.icicleChanged();
  };

  // The pointer moved to another sample: the "At" column (sorted again if it is the
  // table's order), once the pointer has rested a little.
  R.atChanged = function () {
    clearTimeout(this.atTimer);
    this.atTimer = setTimeout(() => {
      this.atNumbers();
      if (this.sort.key === 'at') return this.sortBy('at', this.sort.dir);
      this.tfoot.replaceChildren(this.totalRow());
      const unit = this.d.valueUnit;
      for (const [r, td] of this.atCells) {
        const v = this.nums.at[r];
        td.dataset.value = String(v);
        td.textContent = v === v ? amount(v, unit, this.state.units) : '–';
        td.title = v === v ? thousands(Math.round(v)) + (unit ? ' ' + unit : '') : '';
      }
    }, H.SETTLE);
  };

  // The window changed: the table's numbers are those of the new one, once the window
  // has rested a little (on a large profile they are most of a zoom's work: the chart
  // first, and panning with the keys does not wait for them).
  R.windowChanged = function () {
    clearTimeout(this.windowTimer);
    this.windowTimer = setTimeout(() => {
      this.numbers();
      this.sortBy(this.sort.key, this.sort.dir);
    }, H.SETTLE);
    this.icicleChanged();
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
})(window.hp2ps);
