// hp2ps's page: a time profile's panel. Its header says the run (program, RTS options,
// total time, ticks and interval, processors, total allocation); its toolbar switches
// the measure (time, allocation, entries, and ticks and bytes where the file counts
// them), searches and zooms out; the flame graph (#calltree, flame.js) zooms into a
// stack on a click (the breadcrumbs go back) and chooses its cost centre, whose
// sandwich (sandwich.js) and bands of the heap (timelink.js) follow; the readout names
// the stack pointed at; the cost-centre table is costcentres.js's. What the reader chose
// is the panel's `state`, kept in the URL's fragment with the heap's (share.js).
(function (H) {
  'use strict';
  const { el, thousands, amount } = H;

  // The measures, as the toolbar and the readout name them.
  const MEASURES = [
    ['time', 'Time', 'Each stack as wide as its share of the time, its callees\' included'],
    ['alloc', 'Alloc', 'Each stack as wide as its share of the allocation, its callees\' included'],
    ['entries', 'Entries', 'Each stack as wide as its entries, its callees\' included'],
    ['ticks', 'Ticks', 'Each stack as wide as its ticks, its callees\' included'],
    ['bytes', 'Bytes', 'Each stack as wide as the bytes it allocated, its callees\' included'],
  ];
  const WHAT = { time: 'of the time', alloc: 'of the allocation', entries: 'entries', ticks: 'ticks', bytes: 'bytes' };

  function TimeProfile(d, section, index, run) {
    this.d = d;
    this.index = index;
    this.run = run || null;
    this.section = section;
    this.box = section.querySelector('.time-profile');
    this.ccs = d.ccs;
    this.tree = new H.Tree(d.tree, d.ccs);
    this.state = { measure: this.tree.has('time') ? 'time' : d.measures[0], zoom: -1, query: '', cc: -1, sort: null };
    this.view = this.tree;
    this.windowText = '';
    if (run) run.timePanel = this;
    if (!run) {
      // A time profile alone: the heap chart's frame around it stays empty.
      for (const e of section.querySelectorAll(':scope > .run-head, :scope > .toolbar, :scope > .plot')) e.hidden = true;
    }
    this.buildHead();
    this.buildToolbar();
    const flameBox = this.box.querySelector('.flame');
    if (index === 0) flameBox.id = 'calltree';
    this.crumbs = this.box.querySelector('.crumbs');
    this.status = this.box.querySelector('.flame-status');
    this.readout = this.box.querySelector('.flame-readout');
    if (index === 0) this.readout.id = run ? 'calltree-readout' : 'readout';
    this.icicle = new H.Icicle(flameBox, {
      label: 'Cost-centre stacks, the outermost first: a level per row; arrow keys: ↓ callees, ↑ caller, ← → neighbours; Enter zooms in, Escape out',
      hover: (i, e) => this.hover(i, e),
      choose: (i) => this.choose(i),
      colour: (i) => this.colourOf(i),
      share: (i, m) => this.shareText(i, m),
      keys: (e) => this.key(e),
    });
    this.buildSandwich();
    this.buildTable();
    this.buildLink();
    if (window.ResizeObserver) {
      let last = 0;
      new ResizeObserver(() => {
        const w = flameBox.clientWidth;
        if (Math.abs(w - last) < 2) return;
        last = w;
        this.draw();
      }).observe(flameBox);
    }
    this.draw();
  }
  H.TimeProfile = TimeProfile;
  const P = TimeProfile.prototype;

  // ---- The header ----

  P.buildHead = function () {
    const d = this.d;
    const h = d.header;
    const head = this.box.querySelector('.time-head');
    const title = el('h2', {}, this.run ? 'Time and allocation profile' : (d.file || h.program || 'Time profile'));
    const chips = el('div', { class: 'kind' });
    const chip = (text, title) => chips.appendChild(el('span', { class: 'chip', title }, text));
    chip({ report: 'GHC time profile (+RTS -p)', json: 'GHC time profile, JSON (+RTS -pj)', eventlog: 'eventlog time samples (+RTS -p -l)' }[d.kind] || 'time profile',
      'What the file is');
    if (h.date) chip(h.date, 'When the profile was written');
    head.append(title, chips);
    if (!this.run) {
      const tools = el('div', { class: 'head-tools' });
      const theme = el('button', { type: 'button', title: 'Light or dark', 'aria-label': 'Light or dark' }, '◐');
      theme.addEventListener('click', () => H.toggleTheme());
      tools.appendChild(theme);
      head.appendChild(tools);
    }
    const facts = [];
    if (h.totalTime !== null) facts.push('total time ' + (+h.totalTime.toFixed(3)) + ' s');
    if (h.totalTicks !== null) facts.push(thousands(h.totalTicks) + ' ticks' + (h.interval ? ' of ' + H.seconds(h.interval * 1000) + ' ms' : ''));
    if (h.processors) facts.push(h.processors + (h.processors === 1 ? ' processor' : ' processors'));
    if (h.totalAlloc !== null) facts.push(thousands(h.totalAlloc) + ' bytes allocated');
    facts.push(thousands(d.stacks) + ' stacks of ' + thousands(d.costCentres) + ' cost centres');
    head.appendChild(el('p', { class: 'facts' }, facts.join(' · ')));
    if (h.commandLine) {
      const line = el('p', { class: 'job', title: 'The command line, RTS options between +RTS and -RTS' }, h.commandLine);
      head.appendChild(line);
    }
    if (h.rts && h.rts.length) head.appendChild(el('p', { class: 'facts' }, 'RTS options: ' + h.rts.join(' ')));
    if (d.thinned) {
      head.appendChild(el('p', { class: 'warning' }, 'The page carries the ' + thousands(d.tree.cc.length) + ' widest of the ' + thousands(d.stacks) +
        ' stacks (every stack at least ' + (d.thinned.threshold * 100).toPrecision(2) + ' % wide in some measure); the others are in their callers\' "narrower stacks". The table\'s numbers are every stack\'s.'));
    }
    for (const w of d.warnings || []) head.appendChild(el('p', { class: 'warning' }, w));
  };

  P.buildToolbar = function () {
    const bar = this.box.querySelector('.time-tools');
    const have = MEASURES.filter(([m]) => this.tree.has(m));
    this.measureButtons = H.segmented('Width of a stack', have, (m) => this.setMeasure(m));
    bar.appendChild(this.measureButtons);
    this.search = el('input', { type: 'search', placeholder: 'Search: text, or /regex/', 'aria-label': 'Search cost centres', class: 'flame-search' });
    this.search.addEventListener('input', () => this.setQuery(this.search.value));
    bar.appendChild(this.search);
    this.zoomOut = el('button', { type: 'button', title: 'Show the whole tree again (Escape: one level up)' }, 'Whole tree');
    this.zoomOut.addEventListener('click', () => this.zoomTo(-1));
    bar.appendChild(this.zoomOut);
    if (!this.run) {
      const link = el('button', { type: 'button', title: 'Copy the address of this view' }, 'Copy link');
      link.addEventListener('click', () => H.copyLinkOf(link, () => this.saveState()));
      bar.appendChild(link);
    }
    const svg = el('button', { type: 'button', title: 'Save the flame graph shown as an SVG picture' }, 'SVG');
    svg.addEventListener('click', () => this.download());
    bar.appendChild(svg);
    H.rove(bar, () => [...bar.querySelectorAll('button, input')].filter((b) => !b.disabled), false);
    H.roveReset([...bar.querySelectorAll('button, input')]);
  };

  // ---- Numbers ----

  // The total of measure m in the tree shown (a window's, or the run's).
  P.whole = function (m) {
    if (m === 'time' || m === 'alloc') return 100;
    return this.view.total(m);
  };

  // A value of measure m for people: a share, and the amount it stands for.
  P.amountOf = function (m, v) {
    const h = this.viewHeader();
    if (m === 'time') {
      const s = h.totalTime !== null ? ' (' + H.seconds(+(v / 100 * h.totalTime).toPrecision(3)) + ' s)' : '';
      return v.toFixed(1) + ' %' + s;
    }
    if (m === 'alloc') return v.toFixed(1) + ' %' + (h.totalAlloc !== null ? ' (' + amount(v / 100 * h.totalAlloc, 'bytes', 'binary') + ')' : '');
    if (m === 'bytes') return amount(v, 'bytes', 'binary');
    return thousands(Math.round(v));
  };

  P.viewHeader = function () {
    return this.windowHeader || this.d.header;
  };

  P.shareText = function (i, m, tree) {
    const v = (tree || this.view).inh[m][i];
    const whole = this.whole(m);
    return this.amountOf(m, v) + (m === 'time' || m === 'alloc' || !(whole > 0) ? '' : ', ' + (100 * v / whole).toFixed(1) + ' %') + ' ' + WHAT[m] + ' with its callees';
  };

  P.colourOf = function (i) {
    if (this.colourBy) return this.colourBy(i);
    return this.ccs.fill[this.view.cc[i]];
  };

  // ---- Drawing ----

  P.setMeasure = function (m) {
    if (!this.view.has(m)) return;
    this.state.measure = m;
    this.draw();
    this.saveState();
  };

  P.draw = function () {
    const m = this.view.has(this.state.measure) ? this.state.measure : 'time';
    this.measureButtons.set(m);
    for (const b of Object.values(this.measureButtons.buttons)) b.disabled = !this.view.has(b.dataset.value);
    const zoom = this.state.zoom < this.view.n ? this.state.zoom : -1;
    this.icicle.draw(this.view, m, zoom);
    this.zoomOut.disabled = zoom < 0;
    this.drawCrumbs(zoom);
    this.applyMarks();
    this.describe();
  };

  P.drawCrumbs = function (zoom) {
    const items = [el('button', { type: 'button', 'aria-current': zoom < 0 ? 'true' : null }, 'All stacks')];
    items[0].addEventListener('click', () => this.zoomTo(-1));
    if (zoom >= 0) {
      for (const k of this.view.path(zoom)) {
        const b = el('button', { type: 'button', 'aria-current': k === zoom ? 'true' : null, title: this.titleOf(k) }, this.view.name(k));
        b.addEventListener('click', () => this.zoomTo(k));
        items.push(el('span', { class: 'sep', 'aria-hidden': 'true' }, '›'), b);
      }
    }
    this.crumbs.replaceChildren(...items);
  };

  P.zoomTo = function (i) {
    this.state.zoom = i;
    this.draw();
    this.saveState(true);
  };

  // A click or Enter on stack i: zooms into it (again: out to its caller) and chooses
  // its cost centre.
  P.choose = function (i) {
    const again = this.state.zoom === i;
    this.state.zoom = again ? this.view.parent[i] : i;
    this.icicle.focusAt = i;
    this.chooseCc(this.view.cc[i], true);
    this.draw();
    this.saveState(true);
  };

  P.key = function (e) {
    if (e.key === 'Escape' && this.state.zoom >= 0) {
      e.preventDefault();
      this.zoomTo(this.view.parent[this.state.zoom]);
    }
  };

  // ---- The readout ----

  P.titleOf = function (i) {
    const c = this.view.cc[i];
    return this.ccs.label[c] + ' · ' + this.ccs.module[c] + (this.ccs.src[c] ? ' · ' + this.ccs.src[c] : '');
  };

  P.hover = function (i, e, tree) {
    const r = this.readout;
    if (i === null) { r.hidden = true; this.hovered = null; return; }
    this.hovered = i;
    const v = tree || this.view;
    const c = v.cc[i];
    const rows = [];
    for (const [m, label] of MEASURES) {
      if (!v.has(m)) continue;
      const tr = el('tr', { class: m === this.state.measure ? 'hot' : '' });
      tr.append(el('th', { scope: 'row' }, label), el('td', { class: 'v' }, this.amountOf(m, v.inh[m][i])), el('td', { class: 'v' }, this.amountOf(m, v.own[m][i])));
      rows.push(tr);
    }
    const table = el('table');
    const head = el('tr');
    head.append(el('th'), el('th', { scope: 'col', class: 'v' }, 'with callees'), el('th', { scope: 'col', class: 'v' }, 'own'));
    table.append(head, ...rows);
    r.replaceChildren(
      el('div', { class: 'cc-name' }, this.ccs.label[c]),
      el('div', { class: 'cc-where' }, this.ccs.module[c] + (this.ccs.src[c] ? ' · ' + this.ccs.src[c] : '')),
      table,
    );
    r.hidden = false;
    this.placeReadout(i, e, tree);
  };

  // Beside the pointer (or the node focused), inside the panel.
  P.placeReadout = function (i, e, tree) {
    const r = this.readout;
    const box = this.box.getBoundingClientRect();
    let x;
    let y;
    if (e) { x = e.clientX - box.left; y = e.clientY - box.top; } else {
      const focused = document.activeElement;
      const n = focused && focused.classList.contains('fn') ? focused : this.icicle.elementOf(i);
      if (!n) return;
      const b = n.getBoundingClientRect();
      x = b.left - box.left + Math.min(b.width, 40);
      y = b.bottom - box.top;
    }
    const w = r.offsetWidth;
    const left = x + 14 + w > box.width ? Math.max(0, x - 14 - w) : x + 14;
    r.style.transform = 'translate(' + Math.round(left) + 'px,' + Math.round(y + 12) + 'px)';
  };

  // ---- Search ----

  // The cost centres a query names: text (in the label, module or source) or /regex/.
  P.setQuery = function (q) {
    this.state.query = q;
    this.matches = null;
    this.search.classList.remove('invalid');
    const text = q.trim();
    if (text) {
      let test;
      const re = /^\/(.*)\/([a-z]*)$/.exec(text);
      try {
        if (re) { const r = new RegExp(re[1], re[2].replace(/[gy]/g, '')); test = (s) => r.test(s); } else { const t = text.toLowerCase(); test = (s) => s.toLowerCase().indexOf(t) >= 0; }
      } catch (err) { this.search.classList.add('invalid'); test = null; }
      if (test) {
        const ccs = this.ccs;
        this.matches = new Uint8Array(ccs.label.length);
        for (let c = 0; c < ccs.label.length; c++) this.matches[c] = test(ccs.label[c] + ' ' + ccs.module[c] + ' ' + ccs.src[c]) ? 1 : 0;
      }
    }
    this.applyMarks();
    this.markRows();
    this.saveState();
  };

  // The share of the view that the matching stacks hold: the outermost of them only
  // (a match under a match is inside it already).
  P.matchShare = function () {
    const v = this.view;
    const m = this.state.measure;
    const [from, to] = v.span(this.state.zoom < v.n ? this.state.zoom : -1);
    let sum = 0;
    let stacks = 0;
    const ccs = new Set();
    // Every match counted; the share of the outermost (a match under a match is inside
    // it already).
    let outer = from; // Where the last outermost match's subtree ends.
    for (let i = from; i < to; i++) {
      if (!this.matches[v.cc[i]]) continue;
      stacks++;
      ccs.add(v.cc[i]);
      if (i >= outer) {
        sum += Math.max(0, v.inh[m][i]);
        outer = v.end[i];
      }
    }
    const whole = this.state.zoom >= 0 && this.state.zoom < v.n ? v.inh[m][this.state.zoom] : v.total(m);
    return { share: whole > 0 ? (100 * sum) / whole : 0, stacks, ccs: ccs.size, sum };
  };

  // The classes of the nodes drawn: the search's matches (the rest dimmed), the stacks
  // of the chosen cost centre, the stack of the band pointed at in the heap chart.
  P.applyMarks = function () {
    const v = this.view;
    const matches = this.matches;
    const linked = this.linkedNodes || null;
    this.icicle.mark((i) => {
      const out = [];
      if (matches) out.push(matches[v.cc[i]] ? 'match' : 'dim');
      if (this.state.cc >= 0 && v.cc[i] === this.state.cc) out.push('chosen');
      if (linked && linked.has(i)) out.push('linked');
      return out;
    });
    this.describe();
  };

  P.describe = function () {
    const parts = [];
    if (this.windowText) parts.push(this.windowText);
    if (this.matches) {
      const s = this.matchShare();
      const m = this.state.measure;
      const stacks = thousands(s.stacks) + (s.stacks === 1 ? ' stack' : ' stacks');
      parts.push(s.stacks ? stacks + ' of ' + s.ccs + ' cost centre' + (s.ccs === 1 ? '' : 's') + ' match: ' + s.share.toFixed(1) + ' % ' + WHAT[m] + ' shown.' : 'No stack shown matches.');
    }
    if (this.linkText) parts.push(this.linkText);
    if (!parts.length) parts.push('Point at a stack for its numbers; a click zooms into it and chooses its cost centre (its sandwich below' + (this.run ? ', its bands in the heap chart' : '') + ').');
    this.status.textContent = parts.join(' ');
  };
})(window.hp2ps);
