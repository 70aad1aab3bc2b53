// hp2ps's page: the sandwich of the cost centre chosen (#sandwich), as
// calltree::CallTree::sandwich makes it, from the stacks the page carries: its callers,
// merged over every stack it is in (the cost centre on top, under it the cost centres
// that called it, under those their callers, to MAIN; each as wide as the cost
// centre's time with its callees through that chain), and its callees (the cost
// centre on top, under it the subtrees of all its outermost stacks merged by path). A
// click on a cost centre in either half chooses it.
(function (H) {
  'use strict';
  const { el } = H;
  const P = H.TimeProfile.prototype;

  P.buildSandwich = function () {
    const box = this.box.querySelector('.sandwich');
    if (this.index === 0) box.id = 'sandwich';
    this.sandBox = box;
    this.sandHead = el('h3');
    const half = (label) => {
      const b = el('div', { class: 'flame small' });
      const icicle = new H.Icicle(b, {
        label,
        hover: (i, e) => this.hover(i, e, icicle.tree),
        choose: (i) => this.chooseCc(icicle.tree.cc[i], true),
        colour: (i) => this.ccs.fill[icicle.tree.cc[i]],
        share: (i, m) => this.shareText(i, m, icicle.tree),
      });
      return [b, icicle];
    };
    const [callersBox, callers] = half('Its callers: under each cost centre, those that called it');
    const [calleesBox, callees] = half('Its callees: under each cost centre, those it called');
    this.callers = callers;
    this.callees = callees;
    this.callersNote = el('p', { class: 'note' });
    this.calleesNote = el('p', { class: 'note' });
    box.append(this.sandHead, el('h4', {}, 'Callers'), this.callersNote, callersBox, el('h4', {}, 'Callees'), this.calleesNote, calleesBox);
    box.hidden = true;
  };

  // Paths merged into a tree: node(path) finds or makes the node of a path of cost
  // centres; the nodes come out in pre-order, each {cc, depth, own}.
  function Trie(measures) {
    this.nodes = [];
    this.measures = measures;
  }
  Trie.prototype.child = function (parent, cc) {
    const kids = parent < 0 ? (this.roots = this.roots || new Map()) : this.nodes[parent].kids;
    let k = kids.get(cc);
    if (k === undefined) {
      k = this.nodes.length;
      const own = {};
      for (const m of this.measures) own[m] = 0;
      this.nodes.push({ cc, kids: new Map(), own });
      kids.set(cc, k);
    }
    return k;
  };
  Trie.prototype.add = function (k, values) {
    for (const m of this.measures) this.nodes[k].own[m] += values(m);
  };
  Trie.prototype.tree = function (ccs) {
    const out = [];
    const walk = (k, depth) => {
      const n = this.nodes[k];
      out.push({ cc: n.cc, depth, own: n.own });
      for (const kid of n.kids.values()) walk(kid, depth + 1);
    };
    for (const r of (this.roots || new Map()).values()) walk(r, 0);
    return H.Tree.build(out, this.measures, ccs);
  };

  // The two halves of cost centre cc over tree v.
  P.sandwichOf = function (v, cc) {
    const measures = Object.keys(v.own);
    const outer = [];
    for (let i = 0; i < v.n;) {
      if (v.cc[i] === cc) { outer.push(i); i = v.end[i]; } else i++;
    }
    const callers = new Trie(measures);
    const callees = new Trie(measures);
    for (const o of outer) {
      let at = -1;
      for (let k = o; k >= 0; k = v.parent[k]) at = callers.child(at, v.cc[k]);
      callers.add(at, (m) => Math.max(0, v.inh[m][o]));
      const open = [];
      const base = v.depth[o];
      for (let d = o; d < v.end[o]; d++) {
        open.length = v.depth[d] - base;
        const node = callees.child(open.length ? open[open.length - 1] : -1, v.cc[d]);
        open.push(node);
        callees.add(node, (m) => v.own[m][d]);
      }
    }
    return { outer, callers: callers.tree(this.ccs), callees: callees.tree(this.ccs) };
  };

  P.drawSandwich = function () {
    const cc = this.state.cc;
    if (cc < 0 || cc >= this.ccs.label.length) { this.sandBox.hidden = true; return; }
    const s = this.sandwichOf(this.view, cc);
    this.sandBox.hidden = false;
    const m = this.view.has(this.state.measure) ? this.state.measure : 'time';
    this.sandHead.textContent = 'Sandwich of ' + this.ccs.label[cc] + ' (' + this.ccs.module[cc] + '): ' + s.outer.length + ' outermost stack' + (s.outer.length === 1 ? '' : 's') +
      (s.outer.length ? ', ' + this.amountOf(m, s.callers.total(m)) + ' ' + ({ time: 'of the time', alloc: 'of the allocation' }[m] || m) + ' with its callees' : '');
    this.callersNote.textContent = 'Each cost centre under another called it; as wide as ' + this.ccs.label[cc] + '\'s ' + m + ' through that chain of callers, up to MAIN.';
    this.calleesNote.textContent = 'Every stack under ' + this.ccs.label[cc] + ', merged by path over its ' + s.outer.length + ' outermost stack' + (s.outer.length === 1 ? '' : 's') + '.';
    if (this.view.thinned) this.calleesNote.textContent += ' The page carries the widest stacks only: the narrower are in "narrower stacks" of the flame graph.';
    this.callers.draw(s.callers, m, -1, { focus: false });
    this.callees.draw(s.callees, m, -1, { focus: false });
  };
})(window.hp2ps);
