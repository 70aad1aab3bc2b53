// hp2ps's page: pointing at the chart, the readout, the highlight, the keys and zoom.
(function (H) {
  'use strict';
  const { PAGE, READOUT_ROWS, coord, amount, el, svgEl } = H;
  const R = H.Run.prototype;

  // ---- Pointing ----

  R.listen = function () {
    const hit = this.hit;
    let drag = null;
    hit.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      hit.setPointerCapture(e.pointerId);
      drag = { from: this.toChart(e), client: e.clientX };
    });
    hit.addEventListener('pointermove', (e) => {
      const p = this.toChart(e);
      if (drag) this.select(drag.from[0], p[0]);
      this.hover(p[0], p[1]);
    });
    hit.addEventListener('pointerup', (e) => {
      if (!drag) return;
      const p = this.toChart(e);
      const moved = Math.abs(e.clientX - drag.client) >= 3;
      const from = drag.from[0];
      drag = null;
      this.selection.setAttribute('visibility', 'hidden');
      if (moved) this.zoomTo(this.timeAt(from), this.timeAt(p[0]));
    });
    hit.addEventListener('pointerleave', () => { if (!drag) this.leave(); });
    hit.addEventListener('dblclick', () => this.zoomTo(null));
    this.figure.addEventListener('keydown', (e) => this.key(e));
    this.figure.addEventListener('blur', () => this.leave());
  };

  // A pointer's place in chart points (y upwards).
  R.toChart = function (e) {
    const m = this.overlay.getScreenCTM();
    if (!m) return [0, 0];
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    return [p.x, PAGE - p.y];
  };

  R.timeAt = function (x) {
    const s = this.s;
    const [a, b] = this.span();
    const f = Math.min(1, Math.max(0, (x - s.x0) / s.width));
    return a + f * (b - a);
  };

  R.select = function (x0, x1) {
    const s = this.s;
    const lo = Math.max(s.x0, Math.min(x0, x1));
    const hi = Math.min(s.x0 + s.width, Math.max(x0, x1));
    this.selection.setAttribute('x', coord(lo));
    this.selection.setAttribute('width', coord(Math.max(0, hi - lo)));
    this.selection.setAttribute('y', coord(PAGE - s.y0 - s.height));
    this.selection.setAttribute('height', coord(s.height));
    this.selection.setAttribute('visibility', 'visible');
  };

  // The nearest sample to x, the band under (x, y), the mark near x, the crosshair and
  // the readout.
  R.hover = function (x, y) {
    if (this.times.length === 0) return;
    const t = this.timeAt(x);
    const [i0, i1] = this.range();
    const i = Math.min(i1, Math.max(i0, this.nearest(t)));
    this.nearMark = this.markNear(x);
    // Past the run's last sample (its axis shared with a longer run's): no band there.
    this.pastEnd = x - this.xOf(this.times[this.times.length - 1]) > 6;
    this.point(i, this.pastEnd ? null : this.bandAt(t, y));
    this.placeReadout(this.xOf(this.times[i]));
  };

  // Which visible band is under the point at time t and height y (chart points).
  R.bandAt = function (t, y) {
    const cur = this.current || this.measure();
    const s = this.s;
    const v = (y - s.y0) / (s.height / cur.vSpan);
    if (v < 0 || y > s.y0 + s.height) return null;
    const ts = this.times;
    let j = Math.max(0, this.search(t) - 1);
    if (j + 1 < ts.length && ts[j + 1] <= t) j++;
    const k = Math.min(ts.length - 1, j + 1);
    const f = ts[k] > ts[j] ? Math.min(1, Math.max(0, (t - ts[j]) / (ts[k] - ts[j]))) : 0;
    const at = (b, i) => this.valueIn(b, i, cur.totals);
    if (this.state.view === 'lines') {
      let best = null;
      let dist = 6 / (s.height / cur.vSpan);
      for (const b of cur.visible) {
        const d = Math.abs(at(b, j) + (at(b, k) - at(b, j)) * f - v);
        if (d < dist) { dist = d; best = b.k; }
      }
      return best;
    }
    let sum = 0;
    for (const b of cur.visible) {
      sum += at(b, j) + (at(b, k) - at(b, j)) * f;
      if (v < sum) return b.k;
    }
    return null;
  };

  // The state of the picture as the painter drew it, before any redraw.
  R.measure = function () {
    const visible = this.visible();
    const totals = this.totals(visible);
    this.current = { visible, totals, vSpan: this.vSpan(visible, totals) };
    return this.current;
  };

  // Shows sample i: the crosshair and the readout; `hot` is the band to highlight. The
  // table's "At" column, the icicle and the other runs of the page follow.
  R.point = function (i, hot) {
    this.cross(i);
    const near = this.nearMark === undefined ? null : this.nearMark;
    const changed = this.state.at !== i || this.state.hot !== hot || this.shownMark !== near || this.shownPast !== this.pastEnd;
    this.shownPast = this.pastEnd;
    this.state.at = i;
    this.shownMark = near;
    this.markMarks(near);
    if (this.state.hot !== hot) { this.state.hot = hot; this.applyHighlight(); }
    if (changed || this.readout.hidden) this.fillReadout(i);
    this.readout.hidden = false;
    const t = this.times[i];
    if (this.state.atTime !== t) {
      this.pointed(t);
      if (this.compare) this.compare.pointed(this, t);
    }
  };

  // The crosshair at sample i.
  R.cross = function (i) {
    const s = this.s;
    this.heapCross(this.xOf(this.times[i]));
    const x = coord(this.xOf(this.times[i]));
    const c = this.crossLine;
    c.setAttribute('x1', x);
    c.setAttribute('x2', x);
    c.setAttribute('y1', coord(PAGE - s.y0));
    c.setAttribute('y2', coord(PAGE - s.y0 - s.height));
    c.setAttribute('visibility', 'visible');
  };

  // The pointer's time is t: the "At" column and the icicle follow.
  R.pointed = function (t) {
    this.state.atTime = t;
    this.atChanged();
    this.icicleChanged();
  };

  // Another run of the page is pointed at time t: the crosshair and the readout at the
  // sample nearest it (none past this run's end).
  R.pointedElsewhere = function (t) {
    if (this.times.length === 0) return;
    this.pointed(t);
    const i = this.atSample();
    const past = t - this.times[this.times.length - 1] > (this.span()[1] - this.span()[0]) * 0.01;
    if (this.inWindow(t) && !past) {
      this.cross(i);
      this.nearMark = null;
      this.pastEnd = false;
      this.fillReadout(i);
      this.readout.hidden = false;
      this.placeReadout(this.xOf(this.times[i]));
    } else {
      this.crossLine.setAttribute('visibility', 'hidden');
      this.heapCross(null);
      this.readout.hidden = true;
    }
  };

  // Another run of the page is no longer pointed at.
  R.leftElsewhere = function () {
    this.crossLine.setAttribute('visibility', 'hidden');
    this.heapCross(null);
    this.readout.hidden = true;
  };

  R.leave = function () {
    this.crossLine.setAttribute('visibility', 'hidden');
    this.heapCross(null);
    this.readout.hidden = true;
    this.state.at = null;
    this.nearMark = null;
    this.pastEnd = false;
    this.markMarks(null);
    if (this.state.hot !== null) { this.state.hot = null; this.applyHighlight(); }
    if (this.compare) this.compare.left(this);
  };

  // The time; the visible bands by their value there, the largest first (at most
  // READOUT_ROWS, the rest in one line, the bands at 0 in another); the total; the lines
  // over the bands; and the mark pointed at.
  R.fillReadout = function (i) {
    const d = this.d;
    const t = this.times[i];
    const cur = this.current || this.measure();
    const vu = d.valueUnit;
    const units = this.state.units;
    const parts = [];
    if (this.nearMark !== null && this.nearMark !== undefined) {
      const m = this.nearMark;
      parts.push(el('div', { class: 'mark', 'data-mark': String(m) }, '▼ ' + (d.marks.text[m] || 'mark') + ' · ' + H.when(d.marks.t[m], d.sampleUnit)));
    }
    const head = el('div', { class: 'when', 'data-time': String(t) }, H.when(t, d.sampleUnit));
    head.appendChild(el('span', { class: 'more' }, this.pastEnd ? ' · the run\'s last sample: it ends here' :
      ' · sample ' + (i + 1) + ' of ' + this.times.length + (this.times.length === d.samples ? '' : ' drawn')));
    parts.push(head);
    const values = cur.visible.map((b) => [b, b.values[i]]);
    const nonzero = values.filter(([, v]) => v !== 0).sort((a, b) => b[1] - a[1] || a[0].k - b[0].k);
    const zeros = values.length - nonzero.length;
    let shown = nonzero;
    if (nonzero.length > READOUT_ROWS) {
      // The band pointed at stays listed.
      shown = nonzero.slice(0, READOUT_ROWS);
      const hot = nonzero.find(([b]) => b.k === this.state.hot);
      if (hot && shown.indexOf(hot) < 0) shown[READOUT_ROWS - 1] = hot;
    }
    const body = el('tbody');
    let shownSum = 0;
    for (const [, v] of values) shownSum += v;
    // The total: every band of the profile (traces too, as --summary counts); what the
    // chart leaves out of it, and the sum of the bands shown when some are hidden.
    const every = this.totalsNow[i];
    const total = every === every ? every : shownSum;
    let drawnSum = 0;
    for (const b of this.bands) drawnSum += b.values[i];
    for (const [b, v] of shown) {
      const tr = el('tr', { 'data-name': b.name, class: b.k === this.state.hot ? 'hot' : '' });
      const sw = el('td');
      sw.appendChild(this.swatch(b));
      tr.append(sw, el('td', { class: 'n', title: b.name }, H.shortName(b.name, 46)),
        el('td', { class: 'v', 'data-value': String(v), title: H.thousands(v) + (vu ? ' ' + vu : '') }, amount(v, vu, units)));
      body.appendChild(tr);
    }
    const foot = el('tfoot');
    const rest = nonzero.length - shown.length;
    if (rest > 0) {
      let sum = 0;
      for (const x of nonzero) if (shown.indexOf(x) < 0) sum += x[1];
      const tr = el('tr', { class: 'more' });
      tr.append(el('td'), el('td', {}, rest + ' more'), el('td', { class: 'v' }, amount(sum, vu, units)));
      foot.appendChild(tr);
    }
    if (zeros > 0) {
      const tr = el('tr', { class: 'zeros' });
      tr.append(el('td'), el('td', { colspan: '2' }, zeros === 1 ? '1 band at 0' : zeros + ' bands at 0'));
      foot.appendChild(tr);
    }
    const notDrawn = total - drawnSum;
    if (notDrawn > Math.abs(total) * 1e-12 && this.state.view !== 'normal') {
      const tr = el('tr', { class: 'traces', title: 'Bands too small to draw (-t): in the total, not in the chart' });
      tr.append(el('td'), el('td', {}, 'traces, not drawn'), el('td', { class: 'v', 'data-value': String(notDrawn) }, amount(notDrawn, vu, units)));
      foot.appendChild(tr);
    }
    if (!this.allShown()) {
      const tr = el('tr', { class: 'shown' });
      tr.append(el('td'), el('td', {}, 'the bands shown'), el('td', { class: 'v', 'data-value': String(shownSum) }, amount(shownSum, vu, units)));
      foot.appendChild(tr);
    }
    const tr = el('tr', { class: 'total' });
    tr.append(el('td'), el('td', { title: 'Every band of the profile (--summary\'s total)' }, 'total'),
      el('td', { class: 'v', 'data-value': String(total), title: H.thousands(total) + (vu ? ' ' + vu : '') }, amount(total, vu, units)));
    foot.appendChild(tr);
    const table = el('table');
    table.append(body, foot);
    parts.push(table);
    for (const l of this.lines) {
      if (this.state.linesHidden.has(l.name) || this.state.view === 'normal') continue;
      const v = this.lineAt(l, t);
      if (v !== null) parts.push(el('div', { class: 'line' }, l.name + ': ' + amount(v, vu, units)));
    }
    this.readout.replaceChildren(...parts);
  };

  // A line's value at time t: its last point at or before t.
  R.lineAt = function (l, t) {
    let v = null;
    for (let i = 0; i < l.t.length && l.t[i] <= t; i++) v = l.v[i];
    return v;
  };

  // The readout at the top of the graph, beside the crosshair (at chart x `x`), never
  // over the time being read, and where it covers the least of the chart: of the places
  // left and right of the crosshair, the one whose box hides the least of the stack (a
  // spike beside the pointer stays in sight), the nearest of those alike.
  R.placeReadout = function (x) {
    const s = this.s;
    const box = this.figure.getBoundingClientRect();
    const [, top0, vw] = this.viewBox.split(' ').map(Number);
    const k = box.width / vw;
    const px = x * k;
    const w = this.readout.offsetWidth;
    const h = this.readout.offsetHeight;
    const gap = 14;
    // Below the marks' labels, which name what happened when.
    const labels = (this.labelRows || 0) * 10.5;
    const top = Math.max(0, (PAGE - s.y0 - s.height - top0 + labels) * k + 4);
    const cover = this.coverOf(k, top0, top + h);
    const lo = s.x0 * k;
    const hi = Math.max(lo, (s.x0 + s.width) * k - w);
    const places = [];
    for (let step = 0; step <= 12; step++) {
      places.push(px + gap + (step * (hi - px - gap)) / 12, px - gap - w - (step * (px - gap - w - lo)) / 12);
    }
    let best = null;
    for (const at of places) {
      if (!(at >= 0 && at + w <= box.width + 0.5)) continue;
      if (!(at + w <= px - gap + 0.5 || at >= px + gap - 0.5)) continue;
      const hidden = cover(at, at + w);
      const score = hidden * 4 + Math.abs(at + (at > px ? 0 : w) - px);
      if (!best || score < best[1]) best = [at, score];
    }
    const right = px + gap + w <= box.width && (px < box.width / 2 || px - gap - w < 0);
    const left = best ? best[0] : right ? px + gap : Math.max(0, px - gap - w);
    this.readout.style.transform = 'translate(' + Math.round(left) + 'px, ' + Math.round(top) + 'px)';
  };

  // How much of the chart a box from the top of the figure down to `bottom` (CSS px)
  // hides between CSS x `a` and `b`: the stack's height above `bottom` over that span,
  // in CSS px², from a profile of the shown stack's top by pixel column (made once per
  // drawing).
  R.coverOf = function (k, top0, bottom) {
    const cur = this.current || this.measure();
    const key = [this.detailKey, String(this.state.window), cur.vSpan, k, bottom, cur.visible.length, this.state.view].join('|');
    if (this.coverKey !== key) {
      this.coverKey = key;
      const s = this.s;
      const width = Math.ceil((s.x0 + s.width) * k) + 2;
      const topPx = new Float64Array(width).fill(Infinity);
      const [i0, i1] = this.range();
      const yOf = (v) => (PAGE - s.y0 - (v * s.height) / cur.vSpan - top0) * k;
      const height = (i) => {
        if (this.state.view === 'lines') {
          let m = 0;
          for (const b of cur.visible) m = Math.max(m, b.values[i]);
          return m;
        }
        return this.state.view === 'normal' ? (cur.totals[i] > 0 ? 100 : 0) : cur.totals[i];
      };
      for (let i = i0; i < i1; i++) {
        const [xa, xb] = [this.xOf(this.times[i]) * k, this.xOf(this.times[i + 1]) * k];
        const [ya, yb] = [yOf(height(i)), yOf(height(i + 1))];
        for (let c = Math.max(0, Math.floor(Math.min(xa, xb))); c <= Math.min(width - 1, Math.ceil(Math.max(xa, xb))); c++) {
          const f = xb > xa ? Math.min(1, Math.max(0, (c - xa) / (xb - xa))) : 0;
          topPx[c] = Math.min(topPx[c], ya + (yb - ya) * f);
        }
      }
      const sums = new Float64Array(width + 1);
      for (let c = 0; c < width; c++) sums[c + 1] = sums[c] + Math.max(0, bottom - topPx[c]);
      this.coverSums = sums;
    }
    const sums = this.coverSums;
    const at = (x) => sums[Math.max(0, Math.min(sums.length - 1, Math.round(x)))];
    return (a, b) => at(b) - at(a);
  };

  // The highlighted band (the one pointed at, else the one picked in the table): a veil
  // over the graph with a copy of the band on top, in the overlay; its legend entry and
  // readout row marked.
  R.applyHighlight = function () {
    const k = this.state.hot !== null ? this.state.hot : this.state.picked;
    const group = k === null ? null : this.shown.querySelector('g.bands').children[k];
    const drawn = group && group.childElementCount > 0;
    const copy = drawn ? group.cloneNode(true) : null;
    if (copy && this.state.view !== 'lines') {
      // Its fill, and its outline only where it has a thickness: a band at 0 for a
      // while is no line along its neighbours' edge.
      copy.setAttribute('class', 'fill');
      this.hot.replaceChildren(copy, ...this.outlineOf(k));
    } else this.hot.replaceChildren(...(copy ? [copy] : []));
    if (this.state.window || this.state.view !== 'stacked') this.hot.setAttribute('clip-path', 'url(#hp2ps-clip-' + this.index + ')');
    else this.hot.removeAttribute('clip-path');
    this.veil.setAttribute('visibility', drawn ? 'visible' : 'hidden');
    const name = k === null || !this.bands[k] ? null : this.bands[k].name;
    for (const li of this.legendItems || []) li.classList.toggle('hot', li.dataset.band === name);
    for (const tr of this.readout.querySelectorAll('tr[data-name]')) tr.classList.toggle('hot', tr.getAttribute('data-name') === name);
  };

  // Band k's outline in the stack shown, where it has a thickness: a polygon for each
  // stretch of samples where it is above 0, from the sample before to the one after.
  R.outlineOf = function (k) {
    const cur = this.current || this.measure();
    const s = this.s;
    const band = this.bands[k];
    if (!band || cur.visible.indexOf(band) < 0) return [];
    const scale = s.height / cur.vSpan;
    const [i0, i1] = this.range();
    const below = cur.visible.slice(0, cur.visible.indexOf(band));
    const y = (v) => coord(PAGE - (v * scale + s.y0));
    const parts = [];
    let i = i0;
    while (i <= i1) {
      if (!(this.valueIn(band, i, cur.totals) > 0)) { i++; continue; }
      let j = i;
      while (j + 1 <= i1 && this.valueIn(band, j + 1, cur.totals) > 0) j++;
      const [a, b] = [Math.max(i0, i - 1), Math.min(i1, j + 1)];
      const bottoms = [];
      const tops = [];
      for (let m = a; m <= b; m++) {
        let under = 0;
        for (const o of below) under += this.valueIn(o, m, cur.totals);
        const x = coord(this.xOf(this.times[m]));
        bottoms.push(x + ',' + y(under));
        tops.push(x + ',' + y(under + this.valueIn(band, m, cur.totals)));
      }
      parts.push(svgEl('polygon', { class: 'edge', points: bottoms.concat(tops.reverse()).join(' ') }));
      i = j + 1;
    }
    return parts;
  };

  // ---- Keys ----

  R.key = function (e) {
    const st = this.state;
    const n = this.times.length;
    if (n === 0) return;
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      const dir = e.key === 'ArrowLeft' ? -1 : 1;
      if (st.window && !e.shiftKey) this.pan(dir);
      else {
        const [i0, i1] = this.range();
        const i = st.at === null ? (dir > 0 ? i0 : i1) : Math.min(i1, Math.max(i0, st.at + dir));
        this.nearMark = this.markNear(this.xOf(this.times[i]));
        this.pastEnd = false;
        this.point(i, st.hot);
        this.placeReadout(this.xOf(this.times[i]));
      }
    } else if (e.key === '+' || e.key === '=' || e.key === '-') {
      const [a, b] = this.span();
      const c = (a + b) / 2;
      const half = ((b - a) / 2) * (e.key === '-' ? 2 : 0.5);
      this.zoomTo(c - half, c + half);
    } else if (e.key === 'Escape' || e.key === 'Home') {
      this.zoomTo(null);
      this.leave();
    } else return;
    e.preventDefault();
  };

  // ---- Zoom ----

  // Shows [a, b] (null: the whole run), within the run's time span.
  R.zoomTo = function (a, b, quiet) {
    const s = this.s;
    const [lo, hi] = [s.t0, s.t0 + s.tSpan];
    let win = null;
    if (a !== null) {
      let from = Math.max(lo, Math.min(a, b));
      let to = Math.min(hi, Math.max(a, b));
      if (!(to - from > s.tSpan * 1e-9)) return;
      if (from <= lo && to >= hi) win = null; else win = [from, to];
    }
    // A zoom the reader made is a step of the browser's history (back and forward).
    if (!quiet && String(win) !== String(this.state.window)) H.pushNext = true;
    this.state.window = win;
    this.leave();
    this.redraw();
    if (this.compare && !quiet) this.compare.zoomed(this);
  };

  // Moves the window by a tenth of its width (`dir` -1 or 1), or to start at `from`.
  R.pan = function (dir, from) {
    const s = this.s;
    const [a, b] = this.span();
    const w = b - a;
    let start = from === undefined ? a + dir * w * 0.1 : from;
    start = Math.max(s.t0, Math.min(start, s.t0 + s.tSpan - w));
    this.state.window = [start, start + w];
    this.redraw();
    if (this.compare) this.compare.zoomed(this);
  };
})(window.hp2ps);
