// hp2ps's page: the marks (a .hp's MARK lines, an eventlog's markers): a line across the
// graph each, their texts as labels that do not collide, a list that jumps to each, a
// filter by text, and the mark's text in the readout when the pointer is near it.
(function (H) {
  'use strict';
  const { PAGE, coord, el, svgEl, elide, when } = H;
  const R = H.Run.prototype;
  const MOST_DRAWN = 2000; // A window with more marks draws none of their lines (they would hide the chart).
  const LIST = 400; // The list shows this many marks until asked for all.
  const LABEL = 8.5; // The labels' size, in chart points.
  const ROWS = 3; // Rows of labels at the top of the graph.
  const NEAR = 5; // A mark this near the pointer (chart points) is the one pointed at.

  // Whether mark i passes the marks' filter.
  R.markShown = function (i) {
    const q = this.state.markQuery;
    return !q || (this.d.marks.text[i] || '').toLowerCase().indexOf(q) >= 0;
  };

  // The marks in the window that pass the filter, in time order.
  R.marksInWindow = function () {
    const m = this.d.marks;
    const out = [];
    for (let i = 0; i < m.t.length; i++) if (this.inWindow(m.t[i]) && this.markShown(i)) out.push(i);
    return out;
  };

  // The marks' lines and labels in the overlay: each label right of its line, in the
  // first of ROWS rows at the top of the graph where it overlaps no other, or not at all.
  R.drawMarkLines = function () {
    const s = this.s;
    const shown = this.marksInWindow();
    this.markLines.replaceChildren();
    this.markLabels.replaceChildren();
    this.markElements = new Map();
    if (shown.length > MOST_DRAWN) return;
    const top = PAGE - s.y0 - s.height;
    const ends = new Array(ROWS).fill(-Infinity);
    this.labelRows = 0;
    const right = s.x0 + s.width;
    for (const i of shown) {
      const x = this.xOf(this.d.marks.t[i]);
      const line = svgEl('line', { x1: coord(x), x2: coord(x), y1: coord(PAGE - s.y0), y2: coord(top) });
      this.markLines.appendChild(line);
      const text = elide(this.d.marks.text[i] || '', 28);
      let label = null;
      if (text && shown.length <= 120) {
        // Placed, then measured in the font it is drawn in; kept in the first row where
        // it overlaps no label, else taken out again.
        label = svgEl('g', { class: 'mark-label' });
        const t = svgEl('text', { x: coord(x + 3), 'font-size': coord(LABEL) });
        t.textContent = text;
        const box = svgEl('rect', { x: coord(x + 1), height: coord(LABEL + 1.5), rx: 1.5 });
        label.append(box, t);
        this.markLabels.appendChild(label);
        const w = t.getComputedTextLength() + 4;
        const row = ends.findIndex((end) => end < x && x + w <= right + 2);
        if (row < 0) {
          label.remove();
          label = null;
        } else {
          ends[row] = x + w + 3;
          this.labelRows = Math.max(this.labelRows, row + 1);
          const y = top + 1 + row * (LABEL + 2);
          box.setAttribute('y', coord(y));
          box.setAttribute('width', coord(w));
          t.setAttribute('y', coord(y + LABEL - 0.5));
        }
      }
      this.markElements.set(i, [line, label]);
    }
  };

  // The mark within NEAR points of chart x `x` (the nearest), or null.
  R.markNear = function (x) {
    if (!this.markElements) return null;
    let best = null;
    let dist = NEAR;
    for (const i of this.markElements.keys()) {
      const d = Math.abs(this.xOf(this.d.marks.t[i]) - x);
      if (d <= dist) { dist = d; best = i; }
    }
    return best;
  };

  // Marks the mark pointed at (its line and label), or none.
  R.markMarks = function (near) {
    if (this.markedMark === near) return;
    for (const i of [this.markedMark, near]) {
      const parts = i === null || i === undefined ? null : this.markElements && this.markElements.get(i);
      if (!parts) continue;
      for (const e of parts) if (e) e.classList.toggle('near', i === near);
    }
    this.markedMark = near;
  };

  // The list of marks under the chart (when the run has any): a filter, and a button per
  // mark that shows it.
  R.buildMarks = function () {
    const m = this.d.marks;
    const box = this.section.querySelector('.marks-panel');
    if (!box || !m.t.length) return;
    box.hidden = false;
    const summary = el('summary', {}, m.t.length === 1 ? '1 mark' : m.t.length + ' marks');
    const tools = el('div', { class: 'marks-tools' });
    const filter = el('input', {
      type: 'text', role: 'searchbox', placeholder: 'Filter marks by text', 'aria-label': 'Show the marks whose text contains',
      spellcheck: 'false', autocomplete: 'off',
    });
    filter.addEventListener('input', () => this.setMarkFilter(filter.value));
    this.markFilter = filter;
    tools.appendChild(filter);
    this.markList = el('ol');
    this.markMore = el('button', { type: 'button', class: 'more-rows', hidden: '' });
    this.markMore.addEventListener('click', () => { this.markLimit = Infinity; this.fillMarkList(); });
    this.markLimit = LIST;
    box.append(summary, tools, this.markList, this.markMore);
    // Only a list that is open is made (a log may hold millions of markers).
    box.addEventListener('toggle', () => this.fillMarkList());
    this.marksBox = box;
  };

  R.setMarkFilter = function (text) {
    this.state.markQuery = text.trim().toLowerCase();
    if (this.markFilter && this.markFilter.value !== text) this.markFilter.value = text;
    this.fillMarkList();
    this.redraw();
  };

  R.fillMarkList = function () {
    if (!this.marksBox || !this.marksBox.open) return;
    const m = this.d.marks;
    const items = [];
    let count = 0;
    for (let i = 0; i < m.t.length; i++) {
      if (!this.markShown(i)) continue;
      count++;
      if (items.length >= this.markLimit) continue;
      const b = el('button', { type: 'button', 'data-mark': String(i), title: 'Show the chart around this mark' });
      b.append(el('span', { class: 't' }, when(+m.t[i].toPrecision(4), this.d.sampleUnit)), document.createTextNode(m.text[i] || '(no text)'));
      b.addEventListener('click', () => this.jumpToMark(i));
      items.push(el('li', {}, undefined));
      items[items.length - 1].appendChild(b);
    }
    this.markList.replaceChildren(...items);
    H.roveReset([...this.markList.querySelectorAll('button')]);
    this.markMore.hidden = count <= items.length;
    this.markMore.textContent = 'Show all ' + count + ' marks';
  };

  // Shows mark i: the window moved (or zoomed to a tenth of the run) to have it in its
  // middle, the crosshair at the sample nearest it and its text in the readout.
  R.jumpToMark = function (i) {
    const t = this.d.marks.t[i];
    const s = this.s;
    const w = this.state.window ? this.state.window[1] - this.state.window[0] : s.tSpan / 10;
    this.zoomTo(t - w / 2, t + w / 2);
    if (!this.inWindow(t)) return;
    const x = this.xOf(t);
    this.figure.scrollIntoView({ block: 'nearest' });
    this.nearMark = this.markNear(x);
    this.point(Math.min(this.range()[1], Math.max(this.range()[0], this.nearest(t))), null);
    this.placeReadout(this.xOf(this.times[this.state.at]));
  };
})(window.hp2ps);
