// hp2ps's page: redrawing the chart by the layout's rules (DataScale, src/layout/chart.rs).
(function (H) {
  'use strict';
  const { PAGE, TICK, LINE_VIEW_WIDTH, coord, fixed, thousands, roundStep, unitFor, svgEl } = H;
  const R = H.Run.prototype;

  // Shows the current state: the picture when it is the picture's, else the copy,
  // redrawn (`force`: redrawn even then, to check that it is the picture).
  R.redraw = function (force) {
    const st = this.state;
    const s = this.s;
    this.useDetail();
    const win = String(st.window);
    if (win !== this.drawnWindow) {
      this.drawnWindow = win;
      this.windowChanged();
    }
    const visible = this.visible();
    const shown = new Set(visible.map((b) => b.k));
    const totals = this.totals(visible);
    const vSpan = this.vSpan(visible, totals);
    this.current = { vSpan, totals, visible };
    this.drawMarkLines();
    this.updateToolbar();
    this.drawOverview();
    this.drawHeapPanel();
    this.drawPeak(vSpan);
    this.saveState();
    if (this.pristine() && !force) {
      this.lastVSpan = vSpan;
      this.show(this.picture);
      this.applyHighlight();
      return;
    }
    const c = this.canvas();
    const scale = s.height / vSpan;
    const [i0, i1] = this.range();
    const xs = [];
    for (let i = i0; i <= i1; i++) xs.push(coord(this.xOf(this.times[i])));
    // A group per band: the picture's, then one for each band added from the table.
    while (c.bands.children.length < this.bands.length) c.bands.appendChild(svgEl('g', { class: 'band' }));
    for (let k = c.bands.children.length - 1; k >= this.bands.length; k--) c.bands.children[k].replaceChildren();
    const groups = c.bands.children;
    // The stack, in the layout's arithmetic: prev += value * scale, top = prev + y0.
    const prev = new Float64Array(i1 - i0 + 1);
    let below = null;
    for (const band of this.bands) {
      const g = groups[band.k];
      if (!g) continue;
      if (!shown.has(band.k) || this.times.length === 0) { g.replaceChildren(); continue; }
      const top = [];
      for (let i = i0; i <= i1; i++) {
        const v = this.valueIn(band, i, totals);
        if (st.view === 'lines') top.push(coord(PAGE - (v * scale + s.y0)));
        else { prev[i - i0] += v * scale; top.push(coord(PAGE - (prev[i - i0] + s.y0))); }
      }
      g.replaceChildren(...this.bandShape(band, xs, top, below));
      if (st.view !== 'lines') below = top;
    }
    const clipped = st.window !== null || st.view !== 'stacked' || vSpan !== s.vSpan;
    if (clipped) c.bands.setAttribute('clip-path', 'url(#hp2ps-clip-' + this.index + ')');
    else c.bands.removeAttribute('clip-path');
    this.drawMarks(c);
    this.drawTicks(c, vSpan);
    this.show(c.svg);
    this.settleScale(c, vSpan);
    this.applyHighlight();
  };

  // A new scale comes calmly: the bands, drawn to it, grow or shrink into it from the
  // old one (a quarter of a second), unless the reader asked for less motion.
  R.settleScale = function (c, vSpan) {
    const from = this.lastVSpan;
    this.lastVSpan = vSpan;
    if (!from || from === vSpan || !c.bands.animate) return;
    if (window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    const k = vSpan / from;
    const origin = '0px ' + coord(PAGE - this.s.y0) + 'px';
    for (const g of c.bands.children) {
      if (!g.firstChild) continue;
      g.style.transformBox = 'view-box';
      g.style.transformOrigin = origin;
      g.animate([{ transform: 'scaleY(' + k + ')' }, { transform: 'none' }], { duration: 260, easing: 'cubic-bezier(.2, .7, .3, 1)' });
    }
  };

  // A band's elements: its outline as the painter draws it (band_outline: the first
  // bottom point, the bottom left to right, up at the right end, the top right to left),
  // filled; in the lines view, a line.
  R.bandShape = function (band, xs, top, below) {
    const n = xs.length;
    if (this.state.view === 'lines') {
      const pts = xs.map((x, i) => x + ',' + top[i]).join(' ');
      return [svgEl('polyline', {
        points: pts, stroke: band.pattern ? 'currentColor' : this.lineColour(band),
        'stroke-width': LINE_VIEW_WIDTH, 'stroke-linejoin': 'round', fill: 'none',
      })];
    }
    const axis = coord(PAGE - this.s.y0);
    const bottom = (i) => (below ? below[i] : axis);
    const pts = [xs[0] + ',' + bottom(0)];
    for (let i = 0; i < n; i++) pts.push(xs[i] + ',' + bottom(i));
    pts.push(xs[n - 1] + ',' + top[n - 1]);
    for (let i = n - 1; i >= 0; i--) pts.push(xs[i] + ',' + top[i]);
    const points = pts.join(' ');
    if (!band.pattern) return [svgEl('polygon', { points, fill: band.colour })];
    // A pattern: the background, its ink as SVG patterns, and the outline on top.
    const parts = [svgEl('polygon', { points, fill: band.colour, stroke: 'none' })];
    for (const id of this.patternIds(band.pattern)) {
      parts.push(svgEl('polygon', { points, fill: 'url(#' + id + ')', stroke: 'none' }));
    }
    parts.push(svgEl('polygon', { points }));
    return parts;
  };

  // SVG patterns for a print pattern's hatches and dots, anchored at the chart's origin
  // as the painters anchor them (paint/hatch.rs).
  R.patternIds = function (p) {
    const ids = [];
    const make = (key, build) => {
      const id = 'hp2ps-p' + this.index + '-' + key.replace(/[^0-9a-z]/gi, '_');
      if (!document.getElementById(id)) this.defs.appendChild(build(id));
      ids.push(id);
    };
    for (const [angle, spacing, width] of p.hatches) {
      make('h' + angle + '_' + spacing + '_' + width, (id) => {
        const pat = svgEl('pattern', {
          id, patternUnits: 'userSpaceOnUse', width: 10, height: spacing,
          patternTransform: 'translate(0 ' + PAGE + ') rotate(' + -angle + ')',
        });
        for (const y of [0, spacing]) {
          pat.appendChild(svgEl('line', { x1: -1, x2: 11, y1: y, y2: y, stroke: '#000', 'stroke-width': width }));
        }
        return pat;
      });
    }
    if (p.dots) {
      const [spacing, side] = p.dots;
      make('d' + spacing + '_' + side, (id) => {
        const pat = svgEl('pattern', {
          id, patternUnits: 'userSpaceOnUse', width: spacing, height: 2 * spacing,
          patternTransform: 'translate(0 ' + PAGE + ')',
        });
        for (const [x, y] of [[0, 0], [spacing, 0], [spacing / 2, spacing], [0, 2 * spacing], [spacing, 2 * spacing]]) {
          pat.appendChild(svgEl('rect', { x: x - side / 2, y: y - side / 2, width: side, height: side, fill: '#000', stroke: 'none' }));
        }
        return pat;
      });
    }
    return ids;
  };

  // The marks' carets below the x axis (geometry::caret), where the window has them.
  R.drawMarks = function (c) {
    const m = this.d.marks;
    const y = coord(PAGE - this.s.y0);
    const low = coord(PAGE - this.s.y0 + 4);
    c.marks.replaceChildren();
    for (let i = 0; i < m.t.length; i++) {
      if (!this.inWindow(m.t[i])) continue;
      const x = this.xOf(m.t[i]);
      if (!this.markShown(i)) continue;
      const caret = svgEl('polygon', {
        class: 'mark', fill: '#fff',
        points: coord(x - 4) + ',' + y + ' ' + coord(x) + ',' + low + ' ' + coord(x + 4) + ',' + y,
      });
      if (m.text[i]) {
        const title = svgEl('title');
        title.textContent = m.text[i];
        caret.appendChild(title);
      }
      c.marks.appendChild(caret);
    }
  };

  // The ticks and their labels, by the layout's rules (DataScale): for the whole run
  // from the first sample, before the last, with the layout's decimals; zoomed, at
  // whole steps inside the window, with as many decimals as the step needs.
  R.drawTicks = function (c, vSpan) {
    const s = this.s;
    c.page.querySelectorAll('.xt, .yt').forEach((e) => e.remove());
    const made = [];
    const [a, b] = this.span();
    const width = b - a;
    const xStep = roundStep(width / s.ticks);
    const tick = (cls, from, to, label, at, anchor) => {
      made.push(svgEl('polyline', { class: cls, points: coord(from[0]) + ',' + coord(PAGE - from[1]) + ' ' + coord(to[0]) + ',' + coord(PAGE - to[1]) }));
      const text = this.text(label, at, anchor);
      text.setAttribute('class', cls);
      made.push(text);
    };
    const xTick = (t, decimals) => {
      const px = (t - a) * (s.width / width);
      if (px < s.xRoom) {
        const at = s.x0 + px;
        tick('xt', [at, s.y0], [at, s.y0 - TICK], fixed(t, decimals), [at, s.xLabelY], 'middle');
      }
    };
    if (!this.state.window) {
      for (let t = a; t < s.tEnd;) {
        xTick(t, s.xDecimals);
        const next = t + xStep;
        if (next <= t) break;
        t = next;
      }
    } else if (xStep > 0 && isFinite(xStep)) {
      const decimals = Math.max(0, Math.ceil(-Math.log10(xStep) - 1e-9));
      for (let k = Math.ceil(a / xStep - 1e-9); k * xStep <= b && made.length < 400; k++) xTick(k * xStep, decimals);
    }
    const raw = vSpan / s.ticks;
    const unit = this.state.view === 'normal' ? null : unitFor(this.state.units, this.d.valueUnit, raw);
    let [yStep, divisor, suffix] = [roundStep(Math.max(raw, 1)), 1, ''];
    if (unit) [yStep, divisor] = [roundStep(Math.max(raw / unit[0], 1)) * unit[0], unit[0]];
    else [divisor, suffix] = yStep >= 1e6 ? [1e6, 'M'] : yStep >= 1e3 ? [1e3, 'k'] : [1, ''];
    const grid = [];
    for (let v = 0; v <= vSpan;) {
      const py = v * (s.height / vSpan);
      if (py < s.yRoom) {
        const at = s.y0 + py;
        const label = thousands(Math.trunc(v / divisor + 0.5)) + suffix;
        tick('yt', [s.x0, at], [s.x0 - TICK, at], label, [s.yLabelX, at], 'end');
        if (v > 0) grid.push(coord(PAGE - at));
      }
      const next = v + yStep;
      if (next <= v) break;
      v = next;
    }
    this.gridLines(c.svg, grid);
    c.page.insertBefore(this.fragment(made), c.bands);
    this.drawYLegend(c, unit ? unit[1] : this.d.valueUnit);
  };

  // Light lines across the graph at the y ticks, under the bands: at `ys` (SVG's y).
  R.gridLines = function (svg, ys) {
    const page = svg.querySelector('g.page');
    const bands = page.querySelector('g.bands');
    let g = page.querySelector('g.grid');
    if (!g) {
      g = svgEl('g', { class: 'grid' });
      page.insertBefore(g, bands);
    }
    const s = this.s;
    const [x1, x2] = [coord(s.x0), coord(s.x0 + s.width)];
    g.replaceChildren(...ys.map((y) => svgEl('line', { x1, x2, y1: y, y2: y })));
  };

  // The picture's grid, at its own y ticks (the first, at 0, is the axis).
  R.addGrid = function (svg) {
    const ys = [...svg.querySelectorAll('polyline.yt')].map((p) => p.getAttribute('points').split(/[ ,]/)[1]).slice(1);
    this.gridLines(svg, ys);
  };

  R.fragment = function (nodes) {
    const f = document.createDocumentFragment();
    f.append(...nodes);
    return f;
  };

  // The y legend says what the axis shows: the painter's legend (VALUE_UNIT, or the
  // unit of its labels), another unit, or percent.
  R.drawYLegend = function (c, legend) {
    const old = c.page.querySelector('.yl-view');
    if (old) old.remove();
    if (!c.yLegend) return;
    const want = this.state.view === 'normal' ? '% of the total' : legend;
    if (want === c.yLegend.textContent) {
      c.yLegend.removeAttribute('visibility');
      return;
    }
    c.yLegend.setAttribute('visibility', 'hidden');
    const s = this.s;
    const text = this.text(want, [0, 0], 'end');
    text.setAttribute('class', 'yl-view');
    text.setAttribute('transform', 'translate(' + coord(s.yLabelX) + ' ' + coord(PAGE - s.y0 - s.height) + ') rotate(-90)');
    text.removeAttribute('y');
    c.page.insertBefore(text, c.bands);
  };

  // A 10 pt label as the SVG painter writes it: each glyph at the x where PostScript's
  // `show` puts it (Helvetica advances), aligned as `stringwidth` aligns it.
  R.text = function (label, at, anchor) {
    const size = 10;
    const em = size / 1000;
    const f = this.font;
    const widths = [];
    for (const c of label) {
      const w = f.widths[c.charCodeAt(0) - f.firstCode];
      if (c.length !== 1 || w === undefined) { widths.length = 0; break; }
      widths.push(w);
    }
    const e = svgEl('text', { stroke: 'none', fill: '#000', 'font-size': coord(size) });
    e.setAttributeNS('http://www.w3.org/XML/1998/namespace', 'xml:space', 'preserve');
    e.setAttribute('y', coord(PAGE - at[1]));
    if (widths.length !== label.length || label.length === 0) {
      if (anchor !== 'start') e.setAttribute('text-anchor', anchor);
      e.setAttribute('x', coord(at[0]));
      e.textContent = label;
      return e;
    }
    const total = widths.reduce((x, y) => x + y, 0);
    const start = anchor === 'middle' ? at[0] - (total * em) / 2 : anchor === 'end' ? at[0] - total * em : at[0];
    let advanced = 0;
    [...label].forEach((c, i) => {
      const x = start + advanced * em;
      advanced += widths[i];
      if (i === 0) { e.setAttribute('x', coord(x)); e.appendChild(document.createTextNode(c)); } else {
        const span = svgEl('tspan', { x: coord(x) });
        span.textContent = c;
        e.appendChild(span);
      }
    });
    return e;
  };
})(window.hp2ps);
