// hp2ps's page: the cost-centre stacks of a -hc profile as an icicle.
//
// A band of a -hc profile is a cost-centre stack, named innermost first with `/` between
// the cost centres (the .hp puts the runtime's stack number in front, "(296)main/Main.CAF";
// an eventlog may add " #2" to stacks that -L cut to the same name). The icicle puts the
// innermost cost centres in its first row, each as wide as the memory of every stack that
// ends in it, and below each its callers (or, turned over, the outermost first). A stack
// cut by -L ends in a cost centre ending in "...". The width is the memory at the
// pointer's last sample (before any, at the sample of the highest total), or the mean
// over the window. A click on a cost centre shows only the bands under it.
(function (H) {
  'use strict';
  const { el, amount, thousands } = H;
  const R = H.Run.prototype;
  const ROW = 20; // The height of a row of the icicle, in CSS pixels.

  // Whether the bands are cost-centre stacks: the JOB's first -h flag is -hc (or a bare
  // -h, a profiling build's default, with names that are paths); without one, names in
  // the .hp's form "(n)a/b".
  R.stacks = function () {
    const names = this.d.table.name;
    const paths = names.some((n) => n.indexOf('/') >= 0);
    const flag = /(?:^|\s)(-h[a-zA-Z]?)(?=[\s,]|$)/.exec(this.d.job || '');
    if (flag) return flag[1] === '-hc' || (flag[1] === '-h' && paths);
    return paths && names.every((n) => n === 'OTHER' || /^\(\d+\)/.test(n));
  };

  // A stack's cost centres, innermost first.
  H.frames = (name) => name.replace(/^\(\d+\)/, '').replace(/ #\d+$/, '').split('/');

  R.buildIcicle = function () {
    const box = this.section.querySelector('.icicle');
    if (!this.stacks()) return;
    box.hidden = false;
    const outer = H.toggleButton('Outermost first', 'Turn the icicle over: the outermost cost centres (MAIN, main, a CAF) in its first row', (on) => {
      this.outerFirst = on;
      this.makeTree();
      this.drawIcicle();
    });
    const mean = H.toggleButton('Mean over the window', 'Size the cost centres by their mean over the time shown, not at the pointer', (on) => {
      this.icicleMean = on;
      this.drawIcicle();
    });
    this.icicleHead = el('h2');
    const bar = el('div', { class: 'toolbar' });
    bar.append(outer, mean);
    this.icicle = el('div', { class: 'nodes', role: 'tree', 'aria-label': 'Cost-centre stacks: a level per row; arrow keys: ↓ callers, ↑ back, ← → neighbours' });
    this.icicle.addEventListener('keydown', (e) => this.icicleKey(e));
    box.append(this.icicleHead, bar, this.icicle);
    this.makeTree();
    this.icicleChanged();
  };

  // The tree of cost centres over the bands whose values the page has: every band, when
  // it has those merged into OTHER and the traces; else the drawn bands and OTHER.
  R.makeTree = function () {
    const other = this.other;
    // Every band when the page has their values at the drawn samples (else the drawn
    // bands, OTHER among them, and what the total holds besides: the traces).
    const leaves = this.rest.length && this.base.rest.length ? this.drawn.filter((b) => b.row !== null).concat(this.rest) : this.drawn;
    const root = { name: 'all', kids: new Map(), path: '', depth: 0, under: [] };
    this.nodes = [root];
    this.leaves = leaves.map((band) => {
      const frames = band.row === null ? ['OTHER'] : H.frames(band.name);
      if (this.outerFirst) frames.reverse();
      // The drawn band that shows it: its own, OTHER's, or none (a trace).
      const k = band.row === null ? (other ? other.k : null) : this.bandOfRow(band.row);
      const chain = [root];
      let node = root;
      for (const f of frames) {
        let kid = node.kids.get(f);
        if (!kid) {
          kid = { name: f, kids: new Map(), path: node.path ? node.path + '/' + f : f, depth: node.depth + 1, under: [] };
          node.kids.set(f, kid);
          this.nodes.push(kid);
        }
        chain.push(kid);
        node = kid;
      }
      const leaf = { band, chain, k };
      for (const n of chain) n.under.push(leaf);
      return leaf;
    });
    this.tree = root;
    this.orderTree();
  };

  // Each cost centre's mean over the window, which orders the children of a node (so
  // that they do not move as the pointer does).
  R.orderTree = function () {
    const [i0, i1] = this.inside();
    for (const n of this.nodes) n.mean = 0;
    for (const leaf of this.leaves) {
      let m = 0;
      for (let i = i0; i <= i1; i++) m += leaf.band.values[i];
      for (const n of leaf.chain) n.mean += m;
    }
    for (const n of this.nodes) n.order = [...n.kids.values()].sort((a, b) => b.mean - a.mean || (a.name < b.name ? -1 : 1));
  };

  // The pointer moved, or the window changed: the icicle again, once things settle.
  R.icicleChanged = function () {
    if (!this.tree) return;
    clearTimeout(this.icicleTimer);
    this.icicleTimer = setTimeout(() => this.drawIcicle(), H.SETTLE);
  };

  // The sample the icicle shows: the pointer's last, else the one of the highest total.
  R.icicleSample = function () {
    const at = this.atSample();
    if (at !== null) return at;
    const [i0, i1] = this.inside();
    let best = i0;
    let top = -1;
    for (let i = i0; i <= i1; i++) {
      let sum = 0;
      for (const leaf of this.leaves) sum += leaf.band.values[i];
      if (sum > top) { top = sum; best = i; }
    }
    return best;
  };

  R.drawIcicle = function () {
    if (!this.tree) return;
    if (this.orderedFor !== this.drawnWindow + this.detailKey) {
      this.orderedFor = this.drawnWindow + this.detailKey;
      this.orderTree();
    }
    const unit = this.d.valueUnit;
    const short = (v) => amount(v, unit, this.state.units);
    const i = this.icicleSample();
    const [i0, i1] = this.inside();
    for (const n of this.nodes) n.size = 0;
    const valueOf = (values) => {
      if (!values) return 0;
      if (!this.icicleMean) return values[i] || 0;
      let v = 0;
      for (let j = i0; j <= i1; j++) v += values[j];
      return v / Math.max(1, i1 - i0 + 1);
    };
    for (const leaf of this.leaves) {
      const v = valueOf(leaf.band.values);
      for (const n of leaf.chain) n.size += v;
    }
    // The total is every band's (--summary's, the readout's): what the stacks above do
    // not hold of it is the traces, a node of their own.
    const every = valueOf(this.totalsNow);
    const rest = every === every ? every - this.tree.size : 0;
    this.traceNode = rest > Math.abs(every) * 1e-12 ? { name: 'traces, not drawn', kids: new Map(), order: [], path: '(traces)', depth: 1, under: [], size: rest } : null;
    if (this.traceNode) this.tree.size += rest;
    const total = this.tree.size;
    const [a, b] = this.span();
    const w = (t) => H.when(t, this.d.sampleUnit);
    this.icicleHead.textContent = 'Cost-centre stacks ' + (this.icicleMean ? 'over ' + w(a) + ' to ' + w(b) + ' (mean)' :
      'at ' + w(this.times[i] || 0) + (this.state.atTime === null ? ' (the highest total; point at the chart for another time)' : '')) +
      ': ' + short(total) + (this.outerFirst ? ', outermost first' : ', innermost first, callers below');
    const made = [];
    let depth = 0;
    // Row by row, each child under its parent, from its parent's left edge on.
    const place = (node, left) => {
      depth = Math.max(depth, node.depth);
      let x = left;
      for (const kid of node.order) {
        const w = total > 0 ? kid.size / total : 0;
        if (w < 0.002) continue;
        made.push(this.icicleNode(kid, x, w, short));
        place(kid, x);
        x += w;
      }
    };
    place(this.tree, 0);
    if (this.traceNode && total > 0) {
      const x = this.tree.order.reduce((a, k) => a + (k.size / total >= 0.002 ? k.size / total : 0), 0);
      if (this.traceNode.size / total >= 0.002) made.push(this.icicleNode(this.traceNode, x, this.traceNode.size / total, short));
    }
    this.icicle.style.height = depth * ROW + 'px';
    // A tree of levels for assistive technology: each node's level, and its place among
    // the siblings shown; one tab stop, the arrow keys inside.
    const siblings = new Map();
    for (const e of made) {
      const key = e.dataset.path.split('/').slice(0, -1).join('/') + '|' + e.getAttribute('aria-level');
      if (!siblings.has(key)) siblings.set(key, []);
      siblings.get(key).push(e);
    }
    for (const group of siblings.values()) {
      group.forEach((e, k) => { e.setAttribute('aria-setsize', String(group.length)); e.setAttribute('aria-posinset', String(k + 1)); });
    }
    const focused = this.icicle.contains(document.activeElement) ? document.activeElement.dataset.path : this.icicleFocus;
    const current = made.find((e) => e.dataset.path === focused) || made[0];
    for (const e of made) e.tabIndex = e === current ? 0 : -1;
    this.icicle.replaceChildren(...made);
    if (focused && current && current.dataset.path === focused && document.activeElement === document.body) current.focus();
  };

  // The arrow keys in the icicle: ↓ the biggest caller (the next row), ↑ back up,
  // ← → the neighbours in the row, Home and End its ends.
  R.icicleKey = function (e) {
    const nodes = [...this.icicle.querySelectorAll('.node')];
    const at = nodes.indexOf(document.activeElement);
    if (at < 0) return;
    const node = nodes[at];
    const path = node.dataset.path;
    const level = +node.getAttribute('aria-level');
    const parent = path.split('/').slice(0, -1).join('/');
    const row = nodes.filter((n) => +n.getAttribute('aria-level') === level);
    let next = null;
    if (e.key === 'ArrowDown') next = nodes.find((n) => n.dataset.path.startsWith(path + '/') && +n.getAttribute('aria-level') === level + 1);
    else if (e.key === 'ArrowUp') next = nodes.find((n) => n.dataset.path === parent);
    else if (e.key === 'ArrowRight') next = row[row.indexOf(node) + 1];
    else if (e.key === 'ArrowLeft') next = row[row.indexOf(node) - 1];
    else if (e.key === 'Home') next = row[0];
    else if (e.key === 'End') next = row[row.length - 1];
    else return;
    e.preventDefault();
    if (!next) return;
    node.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
    this.icicleFocus = next.dataset.path;
  };

  R.icicleNode = function (node, x, w, short) {
    const e = el('div', {
      class: 'node' + (this.icicleChosen === node.path ? ' chosen' : ''), role: 'treeitem', tabindex: '-1',
      'data-path': node.path, 'data-value': String(node.size), 'aria-level': String(node.depth),
      'aria-selected': String(this.icicleChosen === node.path),
      'aria-label': node.name + ', ' + short(node.size),
      title: node.path + '\n' + short(node.size) + ' (' + thousands(node.size) + ')',
    }, node.name + ' · ' + short(node.size));
    e.style.left = (x * 100).toFixed(3) + '%';
    e.style.width = (w * 100).toFixed(3) + '%';
    e.style.top = (node.depth - 1) * ROW + 'px';
    const under = node.under;
    const colour = under.length === 1 && under[0].k !== null ? this.bands[under[0].k].colour : null;
    if (colour) {
      e.style.setProperty('--fill', colour);
      // Black or white, whichever reads better on the band's colour (WCAG's contrast:
      // one of them always reaches 4.5:1).
      if (H.contrast(colour, '#ffffff') > H.contrast(colour, '#000000')) e.classList.add('dark');
    } else e.classList.add('grey');
    const choose = () => this.chooseNode(node);
    e.addEventListener('click', choose);
    e.addEventListener('keydown', (ev) => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); choose(); } });
    return e;
  };

  // Shows only the bands under a cost centre (OTHER for those merged into it); again:
  // every band.
  R.chooseNode = function (node) {
    if (!node.under.length) return;
    const keep = new Set(node.under.map((l) => l.k).filter((k) => k !== null));
    const again = this.icicleChosen === node.path || keep.size === 0;
    this.icicleChosen = again ? null : node.path;
    this.state.hidden = new Set(again ? [] : this.bands.filter((b) => !keep.has(b.k)).map((b) => b.name));
    this.redraw();
    this.syncLegend();
    this.drawIcicle();
  };
})(window.hp2ps);
