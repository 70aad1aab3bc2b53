// hp2ps's page: the heap lines (--heap-size: heap size, live bytes, blocks size) in a
// panel of their own under the bands, on the chart's time axis and a scale of their own,
// with every band's total beside them for reference; and the profile's peak marked on the
// chart's y axis.
//
// The runtime measures the heap; the profile counts its bands. Over the bands, a heap
// line three times their height left them in the bottom third of the chart (issue 37),
// so the bands' scale is the bands' and the lines have their own, as eventlog2html's
// Heap tab and Grafana's panels give them.
(function (H) {
  'use strict';
  const { PAGE, coord, el, svgEl, amount, unitFor, roundStep, thousands } = H;
  const R = H.Run.prototype;
  const HEIGHT = 118; // The panel's height, in chart points.
  const TOP = 8; // Room above the plot, for the highest label.
  const BOTTOM = 14; // Room below the plot, for the time labels.

  R.buildHeapPanel = function () {
    if (!this.lines.length) return;
    const col = this.section.querySelector('.chart-col');
    const box = el('figure', { class: 'heap-panel' });
    const key = el('figcaption', { class: 'heap-key' });
    key.appendChild(el('span', { class: 'heap-title' }, 'The heap, on a scale of its own'));
    for (const l of this.lines) {
      const item = el('span', { class: 'heap-item', 'data-line': l.name });
      const sample = svgEl('svg', { class: 'sw', viewBox: '0 0 18 14', 'aria-hidden': 'true' });
      const attrs = { x1: 0, x2: 18, y1: 7, y2: 7, 'stroke-width': Math.max(1.5, l.width * 1.3) };
      if (l.dash) attrs['stroke-dasharray'] = l.dash.join(' ');
      sample.appendChild(svgEl('line', attrs));
      item.append(sample, document.createTextNode(l.name));
      key.appendChild(item);
    }
    const total = el('span', { class: 'heap-item total', title: 'Every band of the profile together, at each sample: what the chart above stacks' });
    const swatch = svgEl('svg', { class: 'sw', viewBox: '0 0 18 14', 'aria-hidden': 'true' });
    swatch.appendChild(svgEl('rect', { x: 0, y: 2, width: 18, height: 10, rx: 2 }));
    total.append(swatch, document.createTextNode('the bands\u2019 total'));
    key.appendChild(total);
    const svg = svgEl('svg', { viewBox: '0 0 648 ' + HEIGHT, 'aria-hidden': 'true' });
    this.heapSvg = svg;
    this.heapKey = key;
    this.heapParts = {
      grid: svgEl('g', { class: 'grid' }), area: svgEl('path', { class: 'heap-total' }), lines: svgEl('g', { class: 'heap-lines' }),
      ticks: svgEl('g', { class: 'heap-ticks' }), cross: svgEl('line', { class: 'cross', visibility: 'hidden' }),
      hit: svgEl('rect', { class: 'hit', x: coord(this.s.x0), y: 0, width: coord(this.s.width), height: HEIGHT, fill: 'transparent' }),
    };
    const p = this.heapParts;
    svg.append(p.grid, p.area, p.lines, p.ticks, p.cross, p.hit);
    // Pointing at the panel reads the time as the chart does: the readout and crosshair.
    const at = (e) => {
      const r = svg.getBoundingClientRect();
      return ((e.clientX - r.left) / r.width) * 648;
    };
    p.hit.addEventListener('pointermove', (e) => this.hover(at(e), -1));
    p.hit.addEventListener('pointerleave', () => this.leave());
    p.hit.addEventListener('dblclick', () => this.zoomTo(null));
    this.heapSummary = el('p', { class: 'sr-only' });
    box.append(key, svg, this.heapSummary);
    col.insertBefore(box, this.figure.nextSibling);
    this.heapBox = box;
  };

  // The panel for the window shown: the lines not hidden and the bands' total, on a
  // scale that fits them.
  R.drawHeapPanel = function () {
    if (!this.heapSvg) return;
    const s = this.s;
    const p = this.heapParts;
    const [a, b] = this.span();
    const shown = this.lines.filter((l) => !this.state.linesHidden.has(l.name));
    for (const item of this.heapKey.querySelectorAll('.heap-item[data-line]')) {
      const l = this.lines.find((x) => x.name === item.dataset.line);
      item.classList.toggle('off', this.state.linesHidden.has(l.name));
      item.querySelector('line').setAttribute('stroke', this.lineColour(l));
    }
    // The samples of each line in the window, and one beyond each end.
    const part = (t) => {
      let i0 = 0;
      while (i0 + 1 < t.length && t[i0 + 1] <= a) i0++;
      let i1 = t.length - 1;
      while (i1 > 0 && t[i1 - 1] >= b) i1--;
      return [i0, i1];
    };
    let top = 0;
    for (const l of shown) {
      const [i0, i1] = part(l.t);
      for (let i = i0; i <= i1; i++) top = Math.max(top, l.v[i]);
    }
    const ts = this.times;
    const tot = this.totalsNow;
    const [j0, j1] = this.range();
    for (let i = j0; i <= j1; i++) if (tot[i] === tot[i]) top = Math.max(top, tot[i]);
    if (!(top > 0)) top = 1;
    const height = HEIGHT - TOP - BOTTOM;
    const y = (v) => coord(HEIGHT - BOTTOM - (v / top) * height);
    // The y ticks, in the page's units, at round steps.
    const unit = unitFor(this.state.units, this.d.valueUnit, top / 4) || [1, ''];
    const step = roundStep(Math.max(top / 4 / unit[0], 1e-9)) * unit[0];
    const ticks = [];
    const grid = [];
    for (let v = 0, k = 0; v <= top * 1.0001 && k < 20; v = ++k * step) {
      ticks.push(svgEl('line', { class: 'axis', x1: coord(s.x0 - 4), x2: coord(s.x0), y1: y(v), y2: y(v) }));
      const t = svgEl('text', { x: coord(s.x0 - 6), y: coord(+y(v) + 3), 'text-anchor': 'end' });
      t.textContent = thousands(Math.round((v / unit[0]) * 10) / 10) + (k === 0 ? '' : '');
      ticks.push(t);
      if (v > 0) grid.push(svgEl('line', { x1: coord(s.x0), x2: coord(s.x0 + s.width), y1: y(v), y2: y(v) }));
    }
    const name = svgEl('text', { x: coord(s.x0 - 6), y: coord(TOP - 1), 'text-anchor': 'end', class: 'heap-unit' });
    name.textContent = unit[1] || this.d.valueUnit;
    ticks.push(name, svgEl('line', { class: 'axis', x1: coord(s.x0), x2: coord(s.x0), y1: y(0), y2: y(top) }),
      svgEl('line', { class: 'axis', x1: coord(s.x0), x2: coord(s.x0 + s.width), y1: y(0), y2: y(0) }));
    p.ticks.replaceChildren(...ticks);
    p.grid.replaceChildren(...grid);
    // The bands' total, as a light area; each line as the painter strokes it.
    const pts = [];
    for (let i = j0; i <= j1; i++) if (tot[i] === tot[i]) pts.push(coord(this.xOf(ts[i])) + ',' + y(tot[i]));
    p.area.setAttribute('d', pts.length ? 'M' + pts[0].split(',')[0] + ',' + y(0) + 'L' + pts.join('L') + 'L' + pts[pts.length - 1].split(',')[0] + ',' + y(0) + 'Z' : '');
    const lines = [];
    for (const l of shown) {
      const [i0, i1] = part(l.t);
      const q = [];
      for (let i = i0; i <= i1; i++) q.push(coord(this.xOf(l.t[i])) + ',' + y(l.v[i]));
      if (q.length < 2) continue;
      const attrs = { points: q.join(' '), stroke: this.lineColour(l), 'stroke-width': coord(Math.max(1.2, l.width)), fill: 'none', 'stroke-linejoin': 'round', 'data-line': l.name };
      if (l.dash) attrs['stroke-dasharray'] = coord(l.dash[0]) + ' ' + coord(l.dash[1]);
      lines.push(svgEl('polyline', attrs));
    }
    p.lines.replaceChildren(...lines);
    p.lines.setAttribute('clip-path', 'url(#hp2ps-heap-clip-' + this.index + ')');
    if (!this.heapClip) {
      const defs = svgEl('defs');
      const clip = svgEl('clipPath', { id: 'hp2ps-heap-clip-' + this.index });
      clip.appendChild(svgEl('rect', { x: coord(s.x0), y: 0, width: coord(s.width), height: HEIGHT }));
      defs.appendChild(clip);
      this.heapSvg.insertBefore(defs, this.heapSvg.firstChild);
      this.heapClip = clip;
    }
    p.area.setAttribute('clip-path', 'url(#hp2ps-heap-clip-' + this.index + ')');
    this.heapTop = top;
    const vu = this.d.valueUnit;
    this.heapSummary.textContent = 'The heap panel: ' + shown.map((l) => {
      const [i0, i1] = part(l.t);
      let m = 0;
      for (let i = i0; i <= i1; i++) m = Math.max(m, l.v[i]);
      return l.name + ' at most ' + amount(m, vu, this.state.units);
    }).join(', ') + ' in the time shown.';
  };

  // The crosshair of the panel at chart x `x` (null: none).
  R.heapCross = function (x) {
    if (!this.heapParts) return;
    const c = this.heapParts.cross;
    if (x === null) { c.setAttribute('visibility', 'hidden'); return; }
    c.setAttribute('x1', coord(x));
    c.setAttribute('x2', coord(x));
    c.setAttribute('y1', TOP);
    c.setAttribute('y2', HEIGHT - BOTTOM);
    c.setAttribute('visibility', 'visible');
  };

  // ---- The peak on the y axis ----

  // The profile's peak (every band's total at its highest) as a dashed line across the
  // graph at its height, with its number: the header's, the readout's at that sample,
  // the table's total row's and --summary's. Only where the axis reaches it.
  R.drawPeak = function (vSpan) {
    if (!this.peakMark) {
      this.peakMark = svgEl('g', { class: 'peak-mark' });
      this.overlay.insertBefore(this.peakMark, this.markLabels);
    }
    const g = this.peakMark;
    const peak = this.peak();
    const s = this.s;
    g.replaceChildren();
    if (!peak || this.state.view === 'normal' || !(peak.value > 0) || peak.value > vSpan * (1 + 1e-9)) return;
    const yv = PAGE - (s.y0 + (peak.value * s.height) / vSpan);
    g.appendChild(svgEl('line', { x1: coord(s.x0), x2: coord(s.x0 + s.width), y1: coord(yv), y2: coord(yv) }));
    const px = this.inWindow(peak.time) ? this.xOf(peak.time) : null;
    const right = px !== null && px < s.x0 + s.width * 0.3;
    const label = svgEl('g', { class: 'peak-label', 'data-value': String(peak.value) });
    // As legible as the tick labels: grown as they are on a small chart.
    const k = +(getComputedStyle(this.figure).getPropertyValue('--label-scale') || 1) || 1;
    const t = svgEl('text', { x: coord(right ? s.x0 + s.width - 4 : s.x0 + 4), y: coord(yv + 1.5 + 8.5 * k), 'text-anchor': right ? 'end' : 'start', 'font-size': coord(9.5 * k) });
    t.textContent = 'peak ' + this.peakText(peak);
    label.append(svgEl('rect', { y: coord(yv + 1.5), height: coord(11 * k), rx: 1.5 }), t);
    g.appendChild(label);
    const w = t.getComputedTextLength() + 4;
    const box = label.firstChild;
    box.setAttribute('x', coord(right ? s.x0 + s.width - 2 - w : s.x0 + 2));
    box.setAttribute('width', coord(w));
  };
})(window.hp2ps);
