// hp2ps's page: while zoomed, a strip of the whole run under the chart (the visible bands'
// total over every drawn sample) with the window on it: drag the window to move it,
// click beside it to centre it there.
(function (H) {
  'use strict';
  const { coord, el, svgEl } = H;
  const R = H.Run.prototype;
  const HEIGHT = 40;

  R.buildOverview = function () {
    const box = this.section.querySelector('.overview');
    if (!box) return;
    const s = this.s;
    // The strip is as wide as the chart and its x is the chart's: the run is under the graph.
    const svg = svgEl('svg', { viewBox: '0 0 648 ' + HEIGHT, preserveAspectRatio: 'none', role: 'img', 'aria-label': 'The whole run, and the window shown' });
    this.ovShape = svgEl('path', { class: 'run-shape' });
    this.ovBefore = svgEl('rect', { class: 'outside', y: 0, height: HEIGHT });
    this.ovAfter = svgEl('rect', { class: 'outside', y: 0, height: HEIGHT });
    this.ovWindow = svgEl('rect', { class: 'window', y: 0.5, height: HEIGHT - 1, rx: 2 });
    svg.append(this.ovShape, this.ovBefore, this.ovAfter, this.ovWindow);
    box.append(svg, el('span', { class: 'label' }, 'The whole run'));
    this.ovBox = box;
    this.ovSvg = svg;
    let grab = null;
    const timeOf = (e) => {
      const r = svg.getBoundingClientRect();
      const x = ((e.clientX - r.left) / r.width) * 648;
      const f = Math.min(1, Math.max(0, (x - s.x0) / s.width));
      return s.t0 + f * s.tSpan;
    };
    svg.addEventListener('pointerdown', (e) => {
      if (!this.state.window) return;
      svg.setPointerCapture(e.pointerId);
      const [a, b] = this.state.window;
      const t = timeOf(e);
      // Beside the window: centre it there first.
      if (t < a || t > b) this.pan(0, t - (b - a) / 2);
      const [a2] = this.state.window;
      grab = t - a2;
    });
    svg.addEventListener('pointermove', (e) => {
      if (grab === null || !this.state.window) return;
      this.pan(0, timeOf(e) - grab);
    });
    const end = () => { grab = null; };
    svg.addEventListener('pointerup', end);
    svg.addEventListener('pointercancel', end);
  };

  // The strip shown while zoomed: the run's shape (again when the bands shown change) and
  // the window.
  R.drawOverview = function () {
    if (!this.ovBox) return;
    const w = this.state.window;
    this.ovBox.hidden = !w;
    if (!w) return;
    const s = this.s;
    const visible = this.bands.filter((b) => !this.isHidden(b) && this.matches(b.name));
    const key = visible.map((b) => b.k).join(',');
    if (this.ovKey !== key) {
      this.ovKey = key;
      // The whole run's samples that have every band shown (a band added from the
      // table: those the page carries it at).
      const src = this.state.added.length && this.restBase ? this.restBase : this.base;
      const ts = src.times;
      const n = ts.length;
      const total = new Float64Array(n);
      for (const b of visible) {
        const v = b.added ? src.rest[b.rest.j] : src.values[b.k];
        for (let i = 0; i < n; i++) total[i] += v[i];
      }
      if (this.other && visible.indexOf(this.other) >= 0) {
        for (const b of visible) if (b.added && this.d.table.fate[b.row] === 'other') {
          const v = src.rest[b.rest.j];
          for (let i = 0; i < n; i++) total[i] -= v[i];
        }
      }
      let top = 0;
      for (let i = 0; i < n; i++) top = Math.max(top, total[i]);
      const x = (t) => coord(s.x0 + ((t - s.t0) / s.tSpan) * s.width);
      const y = (v) => coord(HEIGHT - 2 - (top > 0 ? (v / top) * (HEIGHT - 4) : 0));
      const pts = [];
      for (let i = 0; i < n; i++) pts.push(x(ts[i]) + ',' + y(total[i]));
      this.ovShape.setAttribute('d', n ? 'M' + x(ts[0]) + ',' + HEIGHT + 'L' + pts.join('L') + 'L' + x(ts[n - 1]) + ',' + HEIGHT + 'Z' : '');
    }
    const xa = s.x0 + ((w[0] - s.t0) / s.tSpan) * s.width;
    const xb = s.x0 + ((w[1] - s.t0) / s.tSpan) * s.width;
    this.ovBefore.setAttribute('x', coord(s.x0));
    this.ovBefore.setAttribute('width', coord(Math.max(0, xa - s.x0)));
    this.ovAfter.setAttribute('x', coord(xb));
    this.ovAfter.setAttribute('width', coord(Math.max(0, s.x0 + s.width - xb)));
    this.ovWindow.setAttribute('x', coord(xa));
    this.ovWindow.setAttribute('width', coord(Math.max(0.5, xb - xa)));
  };
})(window.hp2ps);
