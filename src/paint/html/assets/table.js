// hp2ps's page: the band table, every band of the profile with its numbers.
(function (H) {
  'use strict';
  const { TABLE_ROWS, FATES, FATE_TEXT, coord, thousands, readable, seconds, el, svgEl } = H;
  const R = H.Run.prototype;

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
})(window.hp2ps);
