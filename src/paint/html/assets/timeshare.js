// hp2ps's page: a time profile's view kept and shared. Its state lives in the URL's
// fragment with the heap's (share.js: "t.m" the measure, "t.z" the stack zoomed into,
// "t.q" the search, "t.cc" the cost centre chosen, "t.sort" the table's order; the
// page's other runs' as "2.t.m" …), and the flame graph shown saves as an SVG picture.
(function (H) {
  'use strict';
  const { svgEl, coord } = H;
  const P = H.TimeProfile.prototype;

  P.param = function (k) {
    return (this.index ? this.index + 1 + '.' : '') + 't.' + k;
  };

  P.stateParams = function (p) {
    const st = this.state;
    const first = this.tree.has('time') ? 'time' : this.d.measures[0];
    if (st.measure !== first) p.set(this.param('m'), st.measure);
    if (st.zoom >= 0) p.set(this.param('z'), String(st.zoom));
    if (st.query) p.set(this.param('q'), st.query);
    if (st.cc >= 0) p.set(this.param('cc'), String(st.cc));
    if (st.sort && (st.sort.key !== 'time' || st.sort.dir !== -1)) p.set(this.param('sort'), st.sort.key + ':' + st.sort.dir);
  };

  P.restoreState = function (p) {
    const get = (k) => p.get(this.param(k));
    const st = this.state;
    const m = get('m');
    st.measure = m && this.view.has(m) ? m : this.tree.has('time') ? 'time' : this.d.measures[0];
    const z = parseInt(get('z'), 10);
    st.zoom = Number.isInteger(z) && z >= 0 && z < this.view.n ? z : -1;
    const sort = (get('sort') || '').split(':');
    if (this.cols.some((c) => c[0] === sort[0])) st.sort = { key: sort[0], dir: sort[1] === '1' ? 1 : -1 };
    const q = get('q') || '';
    this.search.value = q;
    this.setQuery(q);
    const cc = parseInt(get('cc'), 10);
    st.cc = Number.isInteger(cc) && cc >= 0 && cc < this.ccs.label.length ? cc : -1;
    this.renderRows();
    this.draw();
    this.drawSandwich();
    this.ccChosen();
  };

  // Saved with every run's (push: a step of the browser's history, as a zoom is).
  P.saveState = function (push) {
    if (push && !H.restoring) H.pushNext = true;
    H.saveAll();
  };

  // ---- The flame graph shown, as a picture ----

  P.exportSvg = function () {
    const css = getComputedStyle(document.documentElement);
    const v = (name) => css.getPropertyValue(name).trim();
    const nodes = this.icicle.made;
    const width = this.icicle.width;
    const head = 34;
    const rows = nodes.reduce((r, e) => Math.max(r, parseFloat(e.style.top) + 18), 0);
    const height = head + rows + 6;
    const svg = svgEl('svg', { xmlns: H.NS, width: coord(width), height: coord(height), viewBox: '0 0 ' + coord(width) + ' ' + coord(height), 'font-family': 'system-ui, Helvetica, Arial, sans-serif' });
    svg.appendChild(svgEl('rect', { width: coord(width), height: coord(height), fill: v('--bg') }));
    const title = svgEl('text', { x: '4', y: '14', 'font-size': '12', 'font-weight': '600', fill: v('--ink') });
    const h = this.d.header;
    title.textContent = (this.d.file || h.program || 'time profile') + ' · ' + this.state.measure + (this.state.zoom >= 0 ? ' · ' + this.view.name(this.state.zoom) : '');
    const sub = svgEl('text', { x: '4', y: '28', 'font-size': '10', fill: v('--ink-2') });
    sub.textContent = this.status.textContent || (h.commandLine || '');
    svg.append(title, sub);
    for (const e of nodes) {
      const x = parseFloat(e.style.left);
      const w = parseFloat(e.style.width);
      const y = head + parseFloat(e.style.top);
      const g = svgEl('g');
      const t = svgEl('title');
      t.textContent = this.titleOf(+e.dataset.node);
      g.append(t, svgEl('rect', { x: coord(x), y: coord(y), width: coord(Math.max(0, w - 1)), height: '17', fill: e.style.getPropertyValue('--fill') || '#ccc' }));
      if (e.textContent) {
        const label = svgEl('text', { x: coord(x + 4), y: coord(y + 12.5), 'font-size': '11', fill: '#1d2127' });
        label.textContent = H.elide(e.textContent, Math.max(1, Math.floor((w - 8) / 6.5)));
        g.appendChild(label);
      }
      svg.appendChild(g);
    }
    return '<' + '?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(svg) + '\n';
  };

  P.download = function () {
    const base = (this.d.file || 'profile').replace(/\.[^.]*$/, '') || 'profile';
    H.save(this.exportSvg(), 'image/svg+xml', base + '-flame.svg');
  };
})(window.hp2ps);
