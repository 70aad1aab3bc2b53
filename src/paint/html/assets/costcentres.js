// hp2ps's page: a time profile's cost centres (#costcentres), one row each (data-cc),
// their stacks merged as the report's own table merges them: individual numbers summed
// over the stacks, inherited ones over the outermost (calltree::flat_table, exact). A
// header sorts by its column; a row chooses its cost centre (its stacks marked in the
// flame graph, its sandwich, its bands in the heap chart); the search marks its matches.
(function (H) {
  'use strict';
  const { el, thousands } = H;
  const P = H.TimeProfile.prototype;
  const ROWS = 500; // Rows shown until asked for all.

  // The columns: [key, header, title, numeric, value of cost centre c].
  P.columns = function () {
    const f = this.d.flat;
    const ccs = this.ccs;
    const pct = (v) => v.toFixed(1);
    const alloc = this.tree.has('alloc');
    const cols = [
      ['name', 'Cost centre', 'Its label, module and source location', false, (c) => ccs.label[c] + ' ' + ccs.module[c], null],
      ['stacks', 'Stacks', 'How many stacks it is the top of', true, (c) => f.stacks[c], thousands],
    ];
    if (f.entries) cols.push(['entries', 'Entries', 'How many times its stacks were entered', true, (c) => f.entries[c], thousands]);
    cols.push(['time', 'Time %', 'Its own share of the time (its stacks\' individual %time summed)', true, (c) => f.time[c], pct]);
    if (alloc) cols.push(['alloc', 'Alloc %', 'Its own share of the allocation', true, (c) => f.alloc[c], pct]);
    cols.push(['inhTime', 'Time with callees %', 'Inherited: its outermost stacks\' share of the time, their callees\' included', true, (c) => f.inhTime[c], pct]);
    if (alloc) cols.push(['inhAlloc', 'Alloc with callees %', 'Inherited: its outermost stacks\' share of the allocation', true, (c) => f.inhAlloc[c], pct]);
    if (f.ticks) cols.push(['ticks', 'Ticks', 'Its stacks\' own ticks', true, (c) => f.ticks[c], thousands]);
    if (f.bytes) cols.push(['bytes', 'Bytes', 'Its stacks\' own bytes allocated', true, (c) => f.bytes[c], thousands]);
    return cols;
  };

  P.buildTable = function () {
    const box = this.box.querySelector('.cc-table');
    const table = el('table', { class: 'bands costcentres' });
    if (this.index === 0) table.id = 'costcentres';
    this.table = table;
    this.cols = this.columns();
    this.state.sort = this.state.sort || { key: 'time', dir: -1 };
    const caption = el('caption');
    const listed = this.listed().length;
    const all = this.d.costCentres;
    caption.textContent = (listed < all ? 'The ' + thousands(listed) + ' costliest of the ' + thousands(all) + ' cost centres' : 'Every cost centre (' + thousands(listed) + ')') +
      ', its stacks merged. Sort by a column with its header; a row chooses its cost centre.';
    const csv = el('button', { type: 'button', class: 'csv', title: 'Save the table as CSV' }, 'CSV');
    csv.addEventListener('click', () => H.save(H.csvText(this.csvRows()), 'text/csv', (this.d.file || 'profile').replace(/\.[^.]*$/, '') + '-cost-centres.csv'));
    const headRow = el('tr');
    this.heads = {};
    for (const [key, label, title, num] of this.cols) {
      const th = H.sortHeader(label, title, num, () => this.sortBy(key));
      th.classList.add('c-' + key);
      this.heads[key] = th;
      headRow.appendChild(th);
    }
    const thead = el('thead');
    thead.appendChild(headRow);
    this.tbody = el('tbody');
    table.append(caption, thead, this.tbody);
    this.more = el('button', { type: 'button', class: 'more-rows', hidden: '' });
    this.more.addEventListener('click', () => { this.allRows = true; this.renderRows(); });
    box.append(csv, table, this.more);
    this.tbody.addEventListener('click', (e) => {
      const tr = e.target.closest('tr[data-cc]');
      if (tr) this.chooseCc(+tr.dataset.cc, false);
    });
    this.tbody.addEventListener('keydown', (e) => {
      const tr = e.target.closest('tr[data-cc]');
      if (tr && (e.key === 'Enter' || e.key === ' ')) { e.preventDefault(); this.chooseCc(+tr.dataset.cc, false); }
    });
    this.renderRows();
  };

  P.sortBy = function (key) {
    const s = this.state.sort;
    this.state.sort = { key, dir: s && s.key === key ? -s.dir : key === 'name' ? 1 : -1 };
    this.renderRows();
    this.saveState();
  };

  // The cost centres the table lists: the profile's (the page's first ones), each the
  // top of a stack.
  P.listed = function () {
    const rows = [];
    for (let c = 0; c < this.d.tableCcs; c++) if (this.d.flat.stacks[c] > 0) rows.push(c);
    return rows;
  };

  // The cost centres in the table's order.
  P.order = function () {
    const { key, dir } = this.state.sort;
    const col = this.cols.find((c) => c[0] === key) || this.cols[2];
    const value = col[4];
    const rows = this.listed();
    const name = (c) => this.ccs.label[c];
    return rows.sort((a, b) => H.order(value(a), value(b), dir, name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : a - b));
  };

  P.renderRows = function () {
    const order = this.order();
    const shown = this.allRows ? order : order.slice(0, ROWS);
    for (const [key] of this.cols) H.sorted(this.heads[key], key === this.state.sort.key ? this.state.sort.dir : 0);
    const rows = shown.map((c) => this.row(c));
    this.tbody.replaceChildren(...rows);
    this.more.hidden = shown.length === order.length;
    this.more.textContent = 'Show all ' + thousands(order.length) + ' cost centres';
    this.markRows();
    H.roveRows(this.table);
  };

  P.row = function (c) {
    const ccs = this.ccs;
    const tr = el('tr', { 'data-cc': String(c), tabindex: '-1' });
    for (const [key, , , num, value, show] of this.cols) {
      const td = el('td', { class: (num ? 'num ' : 'name ') + 'c-' + key });
      if (key === 'name') {
        const sw = el('span', { class: 'cc-sw', 'aria-hidden': 'true' });
        sw.style.background = ccs.fill[c];
        const name = el('span', { class: 'nm-key' });
        H.breakable(name, ccs.label[c]);
        td.append(sw, name, el('div', { class: 'cc-where' }, ccs.module[c] + (ccs.src[c] ? ' · ' + ccs.src[c] : '')));
      } else {
        const v = value(c);
        td.textContent = v === null || v === undefined ? '–' : show(v);
      }
      tr.appendChild(td);
    }
    return tr;
  };

  // The rows' marks: the chosen cost centre, the search's matches.
  P.markRows = function () {
    for (const tr of this.tbody.children) {
      const c = +tr.dataset.cc;
      tr.classList.toggle('picked', c === this.state.cc);
      tr.classList.toggle('match', !!(this.matches && this.matches[c]));
      tr.setAttribute('aria-selected', String(c === this.state.cc));
    }
  };

  P.csvRows = function () {
    const head = ['cost centre', 'module', 'src'].concat(this.cols.slice(1).map((c) => c[1]));
    const rows = this.order().map((c) => [this.ccs.label[c], this.ccs.module[c], this.ccs.src[c]].concat(this.cols.slice(1).map((col) => {
      const v = col[4](c);
      return v === null || v === undefined ? '' : String(v);
    })));
    return [head].concat(rows);
  };

  // Chooses cost centre c (again: none): its stacks marked, its sandwich, its bands.
  P.chooseCc = function (c, fromFlame) {
    this.state.cc = this.state.cc === c && !fromFlame ? -1 : c;
    this.markRows();
    this.applyMarks();
    this.drawSandwich();
    this.ccChosen();
    this.saveState();
  };
})(window.hp2ps);
