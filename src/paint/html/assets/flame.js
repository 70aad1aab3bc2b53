// hp2ps's page: a time profile's tree of cost-centre stacks, and the icicle that draws
// one (the flame graph, the sandwich's two halves, a window's and a comparison's).
//
// A tree is the data's columns (src/paint/html/time_panel.rs: its stacks in the file's
// pre-order, each its cost centre, depth, own and inherited value of every measure it
// has), with what the drawing needs worked out once: each stack's caller, the end of its
// subtree and its children widest first. Trees the page makes itself (a sandwich, a
// window of samples) come through H.Tree.build with their own values only: their
// inherited values are subtree sums.
//
// An icicle draws a tree from a root (a stack zoomed into, or every root), each stack
// under its caller and as wide as its inherited value of the measure shown; the stacks
// narrower than a pixel are merged into one hatched "narrower stacks" block per caller,
// with what a thinned page left out of its caller (its inherited value less its own and
// its children's). Nodes are positioned elements in a role=tree box, one tab stop,
// the arrow keys inside.
(function (H) {
  'use strict';
  const { el } = H;
  const ROW = 18; // A row's height in CSS pixels.
  const MIN_PX = 1; // Narrower stacks are merged into their caller's remainder.

  // ---- The tree ----

  function Tree(t, ccs) {
    this.ccs = ccs;
    this.n = t.cc.length;
    this.cc = Int32Array.from(t.cc);
    this.depth = Int32Array.from(t.depth);
    this.own = {};
    this.inh = {};
    for (const m in t.own) this.own[m] = Float64Array.from(t.own[m]);
    for (const m in t.inh || {}) this.inh[m] = Float64Array.from(t.inh[m]);
    this.no = t.no ? Int32Array.from(t.no) : null;
    this.thinned = !!t.thinned;
    this.link();
    for (const m in this.own) if (!this.inh[m]) this.inh[m] = this.sums(this.own[m]);
  }
  H.Tree = Tree;
  const T = Tree.prototype;

  // A tree of the page's own making: `nodes` in pre-order, each {cc, depth, own: {m: v}}.
  Tree.build = function (nodes, measures, ccs) {
    const own = {};
    for (const m of measures) own[m] = nodes.map((x) => x.own[m] || 0);
    return new Tree({ cc: nodes.map((x) => x.cc), depth: nodes.map((x) => x.depth), own }, ccs);
  };

  // Each stack's caller and the end of its subtree, from the depths.
  T.link = function () {
    const n = this.n;
    this.parent = new Int32Array(n);
    this.end = new Int32Array(n);
    const open = [];
    for (let i = 0; i < n; i++) {
      const d = this.depth[i];
      while (open.length > d) this.end[open.pop()] = i;
      this.parent[i] = open.length ? open[open.length - 1] : -1;
      open.push(i);
    }
    while (open.length) this.end[open.pop()] = n;
  };

  // Each stack's value plus its descendants'.
  T.sums = function (own) {
    const s = Float64Array.from(own);
    for (let i = this.n - 1; i >= 0; i--) if (this.parent[i] >= 0) s[this.parent[i]] += s[i];
    return s;
  };

  T.children = function (i) {
    const kids = [];
    for (let k = i + 1; k < this.end[i]; k = this.end[k]) kids.push(k);
    return kids;
  };

  T.roots = function () {
    const r = [];
    for (let k = 0; k < this.n; k = this.end[k]) r.push(k);
    return r;
  };

  T.has = function (m) {
    return !!this.inh[m];
  };

  // The path from the root to i, both included.
  T.path = function (i) {
    const p = [];
    for (let k = i; k >= 0; k = this.parent[k]) p.push(k);
    return p.reverse();
  };

  T.name = function (i) {
    return this.ccs.label[this.cc[i]];
  };

  // The whole of measure m: the roots' inherited values together.
  T.total = function (m) {
    const v = this.inh[m];
    let t = 0;
    if (!v) return 0;
    for (const r of this.roots()) t += Math.max(0, v[r]);
    return t;
  };

  // The nodes of `root` (-1: every root) in pre-order: [from, to).
  T.span = function (root) {
    return root < 0 ? [0, this.n] : [root, this.end[root]];
  };

  // ---- The icicle ----

  // An icicle in `box`; `opts`: label (the tree's name for screen readers), hover(i,
  // event) and choose(i) (a click or Enter), colour(i) (a fill), and keys(event) for
  // the keys it does not take.
  function Icicle(box, opts) {
    this.box = box;
    this.opts = opts;
    this.nodes = el('div', { class: 'flame-nodes', role: 'tree', 'aria-label': opts.label });
    this.rest = el('div', { class: 'flame-rest', 'aria-hidden': 'true' });
    box.append(this.nodes, this.rest);
    this.made = [];
    this.focusAt = null;
    this.nodes.addEventListener('pointermove', (e) => {
      const t = e.target.closest('.fn');
      this.opts.hover(t ? +t.dataset.node : null, e);
    });
    this.nodes.addEventListener('pointerleave', () => this.opts.hover(null, null));
    this.nodes.addEventListener('click', (e) => {
      const t = e.target.closest('.fn');
      if (t) this.opts.choose(+t.dataset.node, e);
    });
    this.nodes.addEventListener('keydown', (e) => this.key(e));
    this.nodes.addEventListener('focusin', (e) => {
      const t = e.target.closest('.fn');
      if (!t) return;
      this.focusAt = +t.dataset.node;
      for (const x of this.made) x.tabIndex = x === t ? 0 : -1;
      this.opts.hover(this.focusAt, null);
    });
  }
  H.Icicle = Icicle;
  const I = Icicle.prototype;

  // Draws `tree` by measure `m` from `root` (-1: every root); `rootValue` overrides the
  // width of the whole (a window's share of its run). Returns the nodes drawn.
  I.draw = function (tree, m, root, opts) {
    opts = opts || {};
    this.tree = tree;
    const v = tree.inh[m];
    const own = tree.own[m];
    const width = Math.max(1, this.box.clientWidth || 800);
    const tops = root < 0 ? tree.roots() : [root];
    let whole = 0;
    for (const r of tops) whole += Math.max(0, v[r]);
    const px = whole > 0 ? width / whole : 0;
    const base = root < 0 ? 0 : tree.depth[root];
    const made = [];
    const rests = [];
    let rows = 0;
    const place = (nodes, left, value, depth, caller) => {
      const kids = nodes.slice().sort((a, b) => v[b] - v[a] || a - b);
      let sum = 0;
      for (const k of kids) sum += Math.max(0, v[k]);
      const scale = value > 0 ? Math.min(1, value / Math.max(sum, 1e-300)) : 1;
      let x = left;
      let narrow = 0;
      for (const k of kids) {
        const w = Math.max(0, v[k]) * scale * px;
        if (w < MIN_PX) { narrow += w; continue; }
        made.push(this.node(tree, k, x, w, depth - base, m));
        rows = Math.max(rows, depth - base + 1);
        const kidsOf = tree.children(k);
        if (kidsOf.length || tree.thinned) place(kidsOf, x, Math.max(0, v[k]), depth + 1, k);
        x += w;
      }
      // What a thinned page left out of the caller: its value less its own and its
      // children's.
      if (caller !== undefined && tree.thinned) {
        narrow += Math.max(0, v[caller] - Math.max(0, own[caller]) - sum) * scale * px;
      }
      if (narrow >= MIN_PX) {
        rests.push(this.restNode(x, narrow, depth - base));
        rows = Math.max(rows, depth - base + 1);
      }
    };
    place(tops, 0, whole, base);
    this.made = made;
    this.width = width;
    const height = rows * ROW;
    this.nodes.style.height = height + 'px';
    this.rest.style.height = height + 'px';
    this.box.style.height = height + 'px';
    this.rowsOf(made);
    this.nodes.replaceChildren(...made);
    this.rest.replaceChildren(...rests);
    if (opts.focus !== false) this.keepFocus();
    return made;
  };

  I.node = function (tree, i, x, w, row, m) {
    const c = tree.cc[i];
    const ccs = tree.ccs;
    const name = ccs.label[c];
    const e = el('div', {
      class: 'fn', role: 'treeitem', tabindex: '-1', 'data-node': String(i), 'data-cc': String(c),
      'aria-level': String(row + 1), 'aria-label': name + ' (' + ccs.module[c] + '): ' + this.opts.share(i, m),
    }, w > 28 ? name : '');
    e.style.left = x.toFixed(2) + 'px';
    e.style.width = w.toFixed(2) + 'px';
    e.style.top = row * ROW + 'px';
    e.style.setProperty('--fill', this.opts.colour(i));
    return e;
  };

  I.restNode = function (x, w, row) {
    const e = el('div', { class: 'fn-rest', title: 'Stacks narrower than a pixel here, together' });
    e.style.left = x.toFixed(2) + 'px';
    e.style.width = w.toFixed(2) + 'px';
    e.style.top = row * ROW + 'px';
    return e;
  };

  // Each node's place among its siblings drawn, for assistive technology.
  I.rowsOf = function (made) {
    const groups = new Map();
    for (const e of made) {
      const p = this.tree.parent[+e.dataset.node];
      if (!groups.has(p)) groups.set(p, []);
      groups.get(p).push(e);
    }
    for (const g of groups.values()) {
      g.forEach((e, k) => { e.setAttribute('aria-setsize', String(g.length)); e.setAttribute('aria-posinset', String(k + 1)); });
    }
  };

  // One tab stop: the node last focused when it is still drawn, else the first.
  I.keepFocus = function () {
    const had = this.nodes.contains(document.activeElement);
    const at = this.made.find((e) => +e.dataset.node === this.focusAt) || this.made[0];
    for (const e of this.made) e.tabIndex = e === at ? 0 : -1;
    if (had && at) at.focus();
  };

  I.elementOf = function (i) {
    return this.made.find((e) => +e.dataset.node === i) || null;
  };

  // Marks the nodes drawn: `classes(i)` gives each its classes (match, dim, linked, chosen).
  I.mark = function (classes) {
    for (const e of this.made) {
      const want = classes(+e.dataset.node);
      for (const c of ['match', 'dim', 'linked', 'chosen']) e.classList.toggle(c, want.indexOf(c) >= 0);
    }
  };

  // ↓ the first child drawn, ↑ the caller, ← → the neighbours in the row, Home and End
  // the row's ends; Enter or Space chooses; the rest goes to the panel.
  I.key = function (e) {
    const at = e.target.closest('.fn');
    if (!at || e.altKey || e.ctrlKey || e.metaKey) return;
    const i = +at.dataset.node;
    const tree = this.tree;
    const level = at.getAttribute('aria-level');
    const row = this.made.filter((x) => x.getAttribute('aria-level') === level).sort((a, b) => parseFloat(a.style.left) - parseFloat(b.style.left));
    let next = null;
    if (e.key === 'ArrowDown') next = this.made.filter((x) => tree.parent[+x.dataset.node] === i).sort((a, b) => parseFloat(a.style.left) - parseFloat(b.style.left))[0];
    else if (e.key === 'ArrowUp') next = this.elementOf(tree.parent[i]);
    else if (e.key === 'ArrowRight') next = row[row.indexOf(at) + 1];
    else if (e.key === 'ArrowLeft') next = row[row.indexOf(at) - 1];
    else if (e.key === 'Home') next = row[0];
    else if (e.key === 'End') next = row[row.length - 1];
    else if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); this.opts.choose(i, e); return; } else { if (this.opts.keys) this.opts.keys(e, i); return; }
    e.preventDefault();
    if (!next) return;
    at.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  };
})(window.hp2ps);
