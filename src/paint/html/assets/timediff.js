// hp2ps's page: several time profiles compared (`hp2ps --format html -o diff.html
// old.prof new.prof`). Each run after the first carries its comparison with the first
// (calltree::TreeDiff: stacks matched by their path of names, modules and source
// locations, never by the files' numbers): a differential flame graph (#calldiff: each
// stack as wide as in the later run, red where its own share grew, blue where it
// shrank, the stronger the more) and each cost centre's change in time, allocation and
// entries (#ccchanges, biggest change of time first), which --summary of two profiles
// prints too.
(function (H) {
  'use strict';
  const { el, thousands } = H;

  function TimeDiff(panels, section) {
    this.panels = panels;
    this.section = section;
    this.pairs = panels.filter((p) => p.d.diff);
    if (!this.pairs.length) return;
    section.hidden = false;
    this.state = { measure: 'time', after: 0, sort: { key: 'time', dir: -1 } };
    const head = el('h1', {}, 'What changed');
    this.files = el('p', { class: 'facts' });
    const bar = el('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Comparison' });
    this.measureButtons = H.segmented('Width of a stack', [['time', 'Time'], ['alloc', 'Alloc'], ['entries', 'Entries']], (m) => { this.state.measure = m; this.draw(); });
    bar.appendChild(this.measureButtons);
    if (this.pairs.length > 1) {
      this.pick = el('select', { 'aria-label': 'The run compared with the first' });
      this.pairs.forEach((p, k) => this.pick.appendChild(el('option', { value: String(k) }, p.d.diff.names[1])));
      this.pick.addEventListener('change', () => { this.state.after = +this.pick.value; this.load(); this.draw(); });
      bar.appendChild(this.pick);
    }
    this.note = el('p', { class: 'note' });
    const box = el('div', { class: 'flame', id: 'calldiff' });
    this.readout = el('div', { class: 'flame-readout', role: 'status', hidden: '' });
    const wrap = el('div', { class: 'time-profile diff' });
    wrap.append(box, this.readout);
    this.icicle = new H.Icicle(box, {
      label: 'The later run\'s cost-centre stacks, coloured by the change of their own share: a level per row',
      hover: (i, e) => this.hover(i, e),
      choose: () => {},
      colour: (i) => this.colourOf(i),
      share: (i, m) => this.changeText(i, m),
    });
    this.table = el('table', { class: 'bands costcentres', id: 'ccchanges' });
    section.append(head, this.files, bar, this.note, wrap, el('h2', {}, 'Cost centres, biggest change first'), this.table);
    this.load();
    this.draw();
  }
  H.TimeDiff = TimeDiff;
  const D = TimeDiff.prototype;

  // The comparison shown: the trees of both runs in one shape, their totals.
  D.load = function () {
    const diff = this.pairs[this.state.after].d.diff;
    this.diff = diff;
    const t = diff.tree;
    this.before = new H.Tree({ cc: t.cc, depth: t.depth, own: t.before }, diff.ccs);
    this.after = new H.Tree({ cc: t.cc, depth: t.depth, own: t.after }, diff.ccs);
    this.files.textContent = diff.names[0] + ' → ' + diff.names[1] + ': ' + thousands(t.cc.length) + ' stacks of either run, matched by their path of cost centres (name, module and source location).';
    this.table.replaceChildren();
    this.buildTable();
  };

  // A stack's own share of measure m in a run (percent of that run's whole).
  D.ownShare = function (tree, i, m) {
    const total = tree.total(m);
    return total > 0 ? (100 * tree.own[m][i]) / total : 0;
  };

  D.change = function (i, m) {
    return this.ownShare(this.after, i, m) - this.ownShare(this.before, i, m);
  };

  D.colourOf = function (i) {
    const c = this.change(i, this.state.measure);
    const t = this.most > 0 ? Math.min(1, Math.abs(c) / this.most) : 0;
    // From a pale grey (no change) to red or blue, light enough for dark labels.
    const [r, g, b] = c > 0 ? [215, 48, 39] : [69, 117, 180];
    const base = [234, 235, 238];
    const mix = (x, k) => Math.round(base[k] + (x - base[k]) * t * 0.75);
    return 'rgb(' + mix(r, 0) + ',' + mix(g, 1) + ',' + mix(b, 2) + ')';
  };

  D.changeText = function (i, m) {
    if (m === 'entries') {
      const [b, a] = [this.before.own.entries[i], this.after.own.entries[i]];
      return 'own ' + thousands(b) + ' → ' + thousands(a) + ' (' + (a - b >= 0 ? '+' : '') + thousands(a - b) + ')';
    }
    const b = this.ownShare(this.before, i, m);
    const a = this.ownShare(this.after, i, m);
    return 'own ' + b.toFixed(1) + ' % → ' + a.toFixed(1) + ' % (' + (a - b >= 0 ? '+' : '') + (a - b).toFixed(1) + ' points)';
  };

  D.draw = function () {
    const m = this.state.measure;
    this.measureButtons.set(m);
    let most = 0;
    for (let i = 0; i < this.after.n; i++) most = Math.max(most, Math.abs(this.change(i, m)));
    this.most = most;
    this.note.textContent = 'Each stack as wide as its ' + m + ' with its callees in ' + this.diff.names[1] + '; red: its own share grew, blue: it shrank (the most: ' +
      most.toFixed(1) + ' points). A stack gone from the later run is not drawn: the table has it.';
    this.icicle.draw(this.after, m, -1, { focus: false });
  };

  D.hover = function (i, e) {
    const r = this.readout;
    if (i === null) { r.hidden = true; return; }
    const c = this.after.cc[i];
    const ccs = this.diff.ccs;
    const lines = [el('div', { class: 'cc-name' }, ccs.label[c]), el('div', { class: 'cc-where' }, ccs.module[c] + (ccs.src[c] ? ' · ' + ccs.src[c] : ''))];
    for (const m of ['time', 'alloc', 'entries']) {
      if (!this.after.has(m)) continue;
      const inh = (t) => (m === 'entries' ? thousands(t.inh[m][i]) : ((100 * t.inh[m][i]) / Math.max(1e-300, t.total(m))).toFixed(1) + ' %');
      lines.push(el('div', { class: m === this.state.measure ? 'hot' : '' }, m + ': ' + this.changeText(i, m) + '; with callees ' + inh(this.before) + ' → ' + inh(this.after)));
    }
    r.replaceChildren(...lines);
    r.hidden = false;
    const box = r.parentElement.getBoundingClientRect();
    const x = e ? e.clientX - box.left : 20;
    const y = e ? e.clientY - box.top : 20;
    const left = x + 14 + r.offsetWidth > box.width ? Math.max(0, x - 14 - r.offsetWidth) : x + 14;
    r.style.transform = 'translate(' + Math.round(left) + 'px,' + Math.round(y + 12) + 'px)';
  };

  // ---- The table of changes ----

  D.buildTable = function () {
    const ch = this.diff.changes;
    const ccs = this.diff.ccs;
    const pct = (v) => (v === null ? '–' : v.toFixed(1));
    const signed = (v, f) => (v === null ? '–' : (v > 0 ? '+' : '') + f(v));
    const cols = [
      ['name', 'Cost centre', false, (r) => ccs.label[ch.cc[r]]],
      ['timeBefore', 'Time % before', true, (r) => ch.time[r][0], pct],
      ['timeAfter', 'after', true, (r) => ch.time[r][1], pct],
      ['time', 'change', true, (r) => ch.time[r][1] - ch.time[r][0], (v) => signed(v, (x) => x.toFixed(1))],
      ['alloc', 'Alloc % change', true, (r) => ch.alloc[r][1] - ch.alloc[r][0], (v) => signed(v, (x) => x.toFixed(1))],
      ['entries', 'Entries change', true, (r) => ch.entries[r][1] - ch.entries[r][0], (v) => signed(v, thousands)],
    ];
    const caption = el('caption', {}, 'Every cost centre of either run, matched by name, module and source location: its own share of the time and allocation, and its entries, before and after.');
    const tr = el('tr');
    const heads = {};
    for (const [key, label, num] of cols) {
      const th = H.sortHeader(label, label, num, () => {
        const s = this.state.sort;
        this.state.sort = { key, dir: s.key === key ? -s.dir : key === 'name' ? 1 : -1 };
        render();
      });
      heads[key] = th;
      tr.appendChild(th);
    }
    const thead = el('thead');
    thead.appendChild(tr);
    const tbody = el('tbody');
    this.table.append(caption, thead, tbody);
    const render = () => {
      const { key, dir } = this.state.sort;
      const col = cols.find((c) => c[0] === key);
      const rows = ch.cc.map((_, r) => r);
      const size = (r) => (key === 'time' || key === 'alloc' || key === 'entries' ? Math.abs(col[3](r)) : col[3](r));
      rows.sort((a, b) => H.order(size(a), size(b), dir, a - b));
      for (const [k] of cols) H.sorted(heads[k], k === key ? dir : 0);
      tbody.replaceChildren(...rows.map((r) => {
        const row = el('tr', { 'data-cc': String(ch.cc[r]), tabindex: '-1', class: ch.runs[r] === 'both' ? '' : 'gone' });
        for (const [k, , num, value, show] of cols) {
          const td = el('td', { class: num ? 'num' : 'name' });
          if (k === 'name') {
            const c = ch.cc[r];
            td.append(el('span', { class: 'nm-key' }, ccs.label[c]), el('div', { class: 'cc-where' }, ccs.module[c] + (ccs.src[c] ? ' · ' + ccs.src[c] : '') +
              (ch.runs[r] === 'before' ? ' · gone' : ch.runs[r] === 'after' ? ' · new' : '')));
          } else {
            const v = value(r);
            td.textContent = show(v);
            if (k === 'time' || k === 'alloc' || k === 'entries') td.classList.add(v > 0 ? 'up' : v < 0 ? 'down' : 'same');
          }
          row.appendChild(td);
        }
        return row;
      }));
      H.roveRows(this.table);
    };
    render();
  };
})(window.hp2ps);
