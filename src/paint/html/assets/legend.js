// hp2ps's page: the legend (every band drawn, with whole names), its filter, and the
// handle that makes it wider.
(function (H) {
  'use strict';
  const { el, svgEl } = H;
  const R = H.Run.prototype;

  // A key box: the band's fill (colour, or its pattern over the background), as the key
  // draws it.
  R.swatch = function (band) {
    const box = svgEl('svg', { class: 'sw', viewBox: '0 0 14 14', 'aria-hidden': 'true' });
    const fills = [band.colour].concat(band.pattern ? this.patternIds(band.pattern).map((id) => 'url(#' + id + ')') : []);
    fills.forEach((fill, i) => box.appendChild(svgEl('rect', {
      x: 0.5, y: 0.5, width: 13, height: 13, rx: 2, fill, stroke: i === fills.length - 1 && band.pattern ? '#000' : 'none',
    })));
    return box;
  };

  R.buildLegend = function () {
    const aside = this.section.querySelector('.legend');
    const panel = el('div', { class: 'panel' });
    const search = el('input', {
      type: 'search', placeholder: 'Filter bands: text, or /regex/', 'aria-label': 'Show the bands whose names match',
      spellcheck: 'false', autocomplete: 'off',
    });
    search.addEventListener('input', () => this.setFilter(search.value));
    this.searchBox = search;
    this.filterError = el('div', { class: 'error', role: 'alert' });
    this.list = el('ul');
    this.count = el('div', { class: 'count' });
    panel.append(search, this.filterError, this.list, this.count);
    aside.appendChild(panel);
    this.fillLegend();
    this.buildSplitter(aside);
    // The names are fitted again when the legend's width changes (a window made narrower,
    // the legend moved below the chart); only the width counts, so a fit that changes
    // the legend's height does not start another.
    if (window.ResizeObserver) {
      let width = null;
      new ResizeObserver(() => {
        if (this.list.clientWidth === width) return;
        width = this.list.clientWidth;
        if (this.d.keyLabels !== 'fit') this.fitNames();
      }).observe(this.list);
    }
  };

  // The entries: the bands, top of the stack first (as they are drawn), then the lines.
  R.fillLegend = function () {
    this.legendItems = [];
    const items = [];
    const share = (b) => {
      const r = b.row === null ? null : this.d.table.share[b.row];
      if (b.row === null) {
        let s = 0;
        this.d.table.fate.forEach((f, i) => { if (f === 'other') s += this.d.table.share[i]; });
        return s;
      }
      return r;
    };
    for (const band of this.bands.slice().reverse()) {
      const li = el('li', { class: 'entry' + (band.added ? ' added' : '') });
      li.dataset.band = band.name;
      li.bandIndex = band.k;
      const toggle = el('button', { type: 'button', class: 'toggle', 'aria-pressed': 'true', tabindex: '-1', 'aria-keyshortcuts': 'Alt+Enter O', title: band.name + '\nClick: hide or show. Alt-click (or O): show only this band.' });
      toggle.append(this.swatch(band), H.bandName(el('span', { class: 'name' }), band.name));
      const s = share(band);
      if (s !== null && s === s) toggle.appendChild(el('span', { class: 'share', title: 'Its share of the area' }, s >= 0.001 ? (s * 100).toFixed(1) + ' %' : '<0.1 %'));
      toggle.addEventListener('click', (e) => (e.altKey ? this.isolate(band.k) : this.toggle(band.k)));
      toggle.addEventListener('keydown', (e) => { if (e.key === 'o' || e.key === 'O') { e.preventDefault(); this.isolate(band.k); } });
      const only = el('button', { type: 'button', class: 'only', tabindex: '-1', 'aria-label': 'Show only ' + band.name, title: 'Show only this band (again: all)' }, 'only');
      only.addEventListener('click', () => this.isolate(band.k));
      li.append(toggle, only);
      li.addEventListener('mouseenter', () => { this.state.hot = band.k; this.applyHighlight(); });
      li.addEventListener('mouseleave', () => { this.state.hot = null; this.applyHighlight(); });
      items.push(li);
      this.legendItems.push(li);
    }
    for (const line of this.lines) {
      const li = el('li', { class: 'entry line' });
      li.dataset.line = line.name;
      const toggle = el('button', { type: 'button', class: 'toggle', 'aria-pressed': 'true', tabindex: '-1', title: line.tooltip });
      const sample = svgEl('svg', { class: 'sw', viewBox: '0 0 14 14', 'aria-hidden': 'true' });
      const attrs = { x1: 0, x2: 14, y1: 7, y2: 7, stroke: this.lineColour(line), 'stroke-width': line.width * 1.3 };
      if (line.dash) attrs['stroke-dasharray'] = line.dash.join(' ');
      sample.appendChild(svgEl('line', attrs));
      line.sample = sample.firstChild;
      toggle.append(sample, el('span', { class: 'name' }, line.name));
      toggle.addEventListener('click', () => {
        const hidden = this.state.linesHidden;
        if (hidden.has(line.name)) hidden.delete(line.name); else hidden.add(line.name);
        this.redraw();
        this.syncLegend();
      });
      li.appendChild(toggle);
      li.lineEntry = line;
      items.push(li);
    }
    this.list.replaceChildren(...items);
    this.syncLegend();
    if (this.d.keyLabels === 'fit') this.fitLabels(); else this.fitNames();
  };

  // A name wraps only between words. One with a word wider than the room beside its
  // share takes the entry's whole width, its share going below it; only a word wider
  // than that breaks inside itself, rather than be cut.
  R.fitNames = function () {
    for (const li of this.legendItems) {
      const name = li.querySelector('.name');
      name.classList.remove('long', 'full');
      if (name.scrollWidth <= name.clientWidth + 1) continue;
      name.classList.add('full');
      if (name.scrollWidth > name.clientWidth + 1) name.classList.add('long');
    }
  };

  // --key-labels fit: a name too wide for its entry loses its middle, not its end (the
  // most characters that fit, the end getting the odd one), as the chart's key does.
  R.fitLabels = function () {
    for (const li of this.legendItems) {
      const span = li.querySelector('.name');
      span.style.whiteSpace = 'nowrap';
      span.style.overflow = 'hidden';
      span.style.flex = '1 1 0';
      const name = [...li.dataset.band];
      if (span.scrollWidth <= span.clientWidth || name.length < 3) continue;
      const build = (keep) => name.slice(0, keep >> 1).join('') + '...' + name.slice(name.length - (keep - (keep >> 1))).join('');
      let lo = 0;
      let hi = name.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        span.textContent = build(mid);
        if (span.scrollWidth <= span.clientWidth) lo = mid; else hi = mid - 1;
      }
      span.textContent = build(lo);
    }
  };

  R.toggle = function (k) {
    const hidden = this.state.hidden;
    const name = this.bands[k].name;
    if (hidden.has(name)) hidden.delete(name); else hidden.add(name);
    this.redraw();
    this.syncLegend();
  };

  // Shows band k alone; if it is alone already, every band again.
  R.isolate = function (k) {
    const st = this.state;
    const alone = this.bands.every((b) => (b.k === k) !== this.isHidden(b));
    st.hidden = new Set(alone ? [] : this.bands.filter((b) => b.k !== k).map((b) => b.name));
    this.redraw();
    this.syncLegend();
  };

  R.syncLegend = function () {
    let shown = 0;
    for (const li of this.legendItems) {
      const band = this.bands[li.bandIndex];
      const off = this.isHidden(band);
      li.classList.toggle('off', off);
      li.firstChild.setAttribute('aria-pressed', String(!off));
      li.hidden = !this.matches(band.name);
      if (!off && !li.hidden) shown++;
    }
    for (const li of this.list.querySelectorAll('li.line')) {
      const off = this.state.linesHidden.has(li.lineEntry.name);
      li.classList.toggle('off', off);
      li.firstChild.setAttribute('aria-pressed', String(!off));
      li.lineEntry.sample.setAttribute('stroke', this.lineColour(li.lineEntry));
    }
    const hidden = this.legendItems.filter((li) => li.hidden).length;
    this.count.textContent = shown + ' of ' + this.bands.length + ' bands drawn' + (hidden ? ' · ' + hidden + ' not matching the filter' : '');
    if (this.showAll) this.showAll.disabled = this.state.hidden.size === 0;
    H.roveReset(this.legendStops());
  };

  // The filter: a substring (any case), or /regex/flags. A regex that does not compile,
  // or is not finished, says so and leaves the view as it was.
  R.setFilter = function (text, quiet) {
    const q = text.trim();
    const input = this.searchBox;
    let filter = null;
    let error = '';
    let note = '';
    const asText = (t) => this.d.table.name.some((n) => n.toLowerCase().indexOf(t) >= 0);
    if (q.charAt(0) === '/' && q.length > 1) {
      const re = /^\/(.+)\/([a-z]*)$/.exec(q);
      if (!re && asText(q.toLowerCase())) {
        filter = q.toLowerCase();
        note = 'As text: a regex ends with / (and flags, such as /i).';
      } else if (!re) error = 'A regex ends with / (and flags, such as /i): the view is unchanged until it does.';
      else {
        try { filter = new RegExp(re[1], re[2].replace(/[gy]/g, '')); } catch (err) {
          error = 'Not a regex the browser reads: ' + String(err.message || err).replace(/^Invalid regular expression: /, '') + '. The view is unchanged.';
        }
      }
    } else if (q && q !== '/') filter = q.toLowerCase();
    else if (q === '/') error = 'Type a regex after the /, and end it with /.';
    input.classList.toggle('invalid', !!error);
    if (error) input.setAttribute('aria-invalid', 'true'); else input.removeAttribute('aria-invalid');
    this.filterError.textContent = error || note;
    if (error) return;
    this.state.filter = filter;
    this.state.query = q;
    if (quiet) return;
    this.redraw();
    this.syncLegend();
    this.renderRows();
    if (this.compare) this.compare.filtered(this, text);
  };

  // The handle between the chart and the legend: drag (or ← → with it focused) to make
  // the legend wider or narrower.
  R.buildSplitter = function (aside) {
    const handle = this.section.querySelector('.splitter');
    if (!handle) return;
    handle.hidden = false;
    const plot = this.section.querySelector('.plot');
    const set = (px) => {
      const w = Math.max(160, Math.min(px, plot.clientWidth * 0.6));
      plot.style.setProperty('--legend-width', Math.round(w) + 'px');
      handle.setAttribute('aria-valuenow', String(Math.round(w)));
      this.fitNames();
    };
    // A separator that moves says where it stands: the legend's width in pixels.
    handle.setAttribute('aria-valuemin', '160');
    handle.setAttribute('aria-valuemax', String(Math.round(Math.max(160, plot.clientWidth * 0.6))));
    handle.setAttribute('aria-valuenow', String(Math.round(aside.getBoundingClientRect().width)));
    let start = null;
    handle.addEventListener('pointerdown', (e) => {
      handle.setPointerCapture(e.pointerId);
      start = [e.clientX, aside.getBoundingClientRect().width];
      handle.classList.add('dragging');
    });
    handle.addEventListener('pointermove', (e) => { if (start) set(start[1] - (e.clientX - start[0])); });
    const end = () => { start = null; handle.classList.remove('dragging'); };
    handle.addEventListener('pointerup', end);
    handle.addEventListener('pointercancel', end);
    handle.addEventListener('keydown', (e) => {
      const w = aside.getBoundingClientRect().width;
      if (e.key === 'ArrowLeft') set(w + 24); else if (e.key === 'ArrowRight') set(w - 24); else return;
      e.preventDefault();
    });
  };
})(window.hp2ps);
