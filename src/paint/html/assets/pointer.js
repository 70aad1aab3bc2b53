// hp2ps's page: pointing at the chart, the readout, the highlight, the keys and zoom.
(function (H) {
  'use strict';
  const { PAGE, READOUT_ROWS, coord, readable, short, seconds, el } = H;
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

  // The nearest sample to x, the band under (x, y), the crosshair and the readout.
  R.hover = function (x, y) {
    if (this.times.length === 0) return;
    const t = this.timeAt(x);
    const [i0, i1] = this.range();
    const i = Math.min(i1, Math.max(i0, this.nearest(t)));
    this.point(i, this.bandAt(t, y));
    this.placeReadout(x, y);
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
    const changed = this.state.at !== i || this.state.hot !== hot;
    this.state.at = i;
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

  // Another run of the page is pointed at time t: the crosshair at the sample nearest it.
  R.pointedElsewhere = function (t) {
    if (this.times.length === 0) return;
    this.pointed(t);
    const i = this.atSample();
    if (this.inWindow(t)) this.cross(i); else this.crossLine.setAttribute('visibility', 'hidden');
  };

  R.leave = function () {
    this.crossLine.setAttribute('visibility', 'hidden');
    this.readout.hidden = true;
    this.state.at = null;
    if (this.state.hot !== null) { this.state.hot = null; this.applyHighlight(); }
    if (this.compare) this.compare.left(this);
  };

  // The time, every visible band's value (top band first, at most READOUT_ROWS of them,
  // the largest), the total, and the marks near the time.
  R.fillReadout = function (i) {
    const d = this.d;
    const t = this.times[i];
    const cur = this.current || this.measure();
    const unit = d.valueUnit;
    const head = el('div', { class: 'when', 'data-time': String(t) },
      seconds(t) + ' ' + d.sampleUnit);
    const count = el('span', { class: 'more' }, ' · sample ' + (i + 1) + ' of ' + this.times.length + ' drawn');
    head.appendChild(count);
    const rows = cur.visible.slice().reverse();
    let shown = rows;
    if (rows.length > READOUT_ROWS) {
      const keep = new Set(rows.slice().sort((a, b) => b.values[i] - a.values[i]).slice(0, READOUT_ROWS));
      shown = rows.filter((b) => keep.has(b));
    }
    const body = el('tbody');
    let total = 0;
    for (const b of rows) total += b.values[i];
    for (const b of shown) {
      const [exact, units] = readable(b.values[i], unit);
      const tr = el('tr', { 'data-name': b.name, class: b.k === this.state.hot ? 'hot' : '' });
      const sw = el('td');
      sw.appendChild(this.swatch(b));
      tr.append(sw, el('td', { class: 'n', title: b.name }, b.name),
        el('td', { class: 'v', 'data-value': String(b.values[i]) }, exact), el('td', { class: 'r' }, units));
      body.appendChild(tr);
    }
    const [exact, units] = readable(total, unit);
    const foot = el('tfoot');
    const tr = el('tr', { class: 'total' });
    tr.append(el('td'), el('td', {}, 'total' + (unit ? ' (' + unit + ')' : '')),
      el('td', { class: 'v', 'data-value': String(total) }, exact), el('td', { class: 'r' }, units));
    foot.appendChild(tr);
    const table = el('table');
    table.append(body, foot);
    const parts = [head, table];
    if (shown.length < rows.length) parts.push(el('div', { class: 'more' }, (rows.length - shown.length) + ' smaller bands not listed'));
    for (const l of this.lines) {
      if (this.state.linesHidden.has(l.k) || this.state.view === 'normal') continue;
      const v = this.lineAt(l, t);
      if (v !== null) parts.push(el('div', { class: 'mark' }, l.name + ': ' + short(v, unit)));
    }
    const m = d.marks;
    const near = (this.span()[1] - this.span()[0]) * (6 / this.s.width);
    for (let k = 0; k < m.t.length; k++) {
      if (Math.abs(m.t[k] - t) <= near) {
        parts.push(el('div', { class: 'mark' }, 'mark at ' + seconds(m.t[k]) + ' ' + d.sampleUnit + (m.text[k] ? ': ' + m.text[k] : '')));
      }
    }
    this.readout.replaceChildren(...parts);
  };

  // A line's value at time t: its last point at or before t.
  R.lineAt = function (l, t) {
    let v = null;
    for (let i = 0; i < l.t.length && l.t[i] <= t; i++) v = l.v[i];
    return v;
  };

  // The readout beside the pointer, inside the figure.
  R.placeReadout = function (x, y) {
    const s = this.s;
    const box = this.figure.getBoundingClientRect();
    const k = box.width / 648;
    const px = x * k;
    const py = (PAGE - y) * k;
    const w = this.readout.offsetWidth;
    const h = this.readout.offsetHeight;
    const left = px + 16 + w > box.width ? Math.max(0, px - 16 - w) : px + 16;
    const top = Math.min(Math.max(0, py - h / 2), Math.max(0, (PAGE - s.y0) * k - h));
    this.readout.style.transform = 'translate(' + Math.round(left) + 'px, ' + Math.round(top) + 'px)';
  };

  // The highlighted band (the one pointed at, else the one picked in the table): a veil
  // over the graph with a copy of the band on top, in the overlay; its legend entry and
  // readout row marked.
  R.applyHighlight = function () {
    const k = this.state.hot !== null ? this.state.hot : this.state.picked;
    const group = k === null ? null : this.shown.querySelector('g.bands').children[k];
    const drawn = group && group.childElementCount > 0;
    this.hot.replaceChildren(...(drawn ? [group.cloneNode(true)] : []));
    if (this.state.window || this.state.view !== 'stacked') this.hot.setAttribute('clip-path', 'url(#hp2ps-clip-' + this.index + ')');
    else this.hot.removeAttribute('clip-path');
    this.veil.setAttribute('visibility', drawn ? 'visible' : 'hidden');
    for (const li of this.legendItems || []) li.classList.toggle('hot', li.bandIndex === k);
    for (const tr of this.readout.querySelectorAll('tr[data-name]')) {
      tr.classList.toggle('hot', k !== null && tr.getAttribute('data-name') === this.bands[k].name);
    }
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
        this.point(i, st.hot);
        this.placeReadout(this.xOf(this.times[i]), this.s.y0 + this.s.height * 0.75);
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
    this.state.window = win;
    this.leave();
    this.redraw();
    if (this.compare && !quiet) this.compare.zoomed(this);
  };

  // Moves the window by a tenth of its width.
  R.pan = function (dir) {
    const s = this.s;
    const [a, b] = this.span();
    const w = b - a;
    let from = a + dir * w * 0.1;
    from = Math.max(s.t0, Math.min(from, s.t0 + s.tSpan - w));
    this.state.window = [from, from + w];
    this.redraw();
    if (this.compare) this.compare.zoomed(this);
  };
})(window.hp2ps);
