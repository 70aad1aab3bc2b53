// hp2ps's page: keeping and sharing a view. What the reader chose lives in the URL's
// fragment (reloading the page, or opening a link to it, shows the same view); the view
// shown exports as SVG or PNG, with its legend; and the colour scheme toggle.
//
// The fragment holds, for each run (the first's keys bare, the others' as "2.hide" …):
// view, fit, units, from and to (the window), hide (hidden bands' names), add (bands drawn
// from the table), lines (hidden lines), q (the filter), marks (the marks' filter); and
// layout (several runs: side or stacked).
(function (H) {
  'use strict';
  const { el, svgEl, coord, elide } = H;
  const R = H.Run.prototype;
  const SEP = '\n';

  // The run's state as fragment parameters.
  R.stateParams = function (p) {
    const st = this.state;
    const key = (k) => (this.index ? this.index + 1 + '.' : '') + k;
    if (st.view !== 'stacked') p.set(key('view'), st.view);
    if (st.fitY !== this.fitDefault()) p.set(key('fit'), st.fitY ? '1' : '0');
    if (st.units !== (this.s.units || 'hp2ps')) p.set(key('units'), st.units);
    if (st.window) { p.set(key('from'), String(st.window[0])); p.set(key('to'), String(st.window[1])); }
    if (st.hidden.size) p.set(key('hide'), [...st.hidden].join(SEP));
    if (st.added.length) p.set(key('add'), st.added.join(SEP));
    if (st.linesHidden.size) p.set(key('lines'), [...st.linesHidden].join(SEP));
    if (st.query) p.set(key('q'), st.query);
    if (st.markQuery) p.set(key('marks'), st.markQuery);
  };

  // Whether the y axis fits what is shown until the reader says otherwise: on a page of
  // its own; several runs share their axes, to be compared.
  R.fitDefault = function () {
    return !this.compare;
  };

  // Writes every run's state into the URL once things rest: a zoom the reader made as a
  // new entry of the browser's history (back and forward go through the windows), any
  // other change in place.
  R.saveState = function () {
    H.saveAll();
  };

  // The heap runs' and the time profiles' states, as one fragment.
  H.saveAll = function () {
    if ((!H.runs && !H.times) || H.restoring) { H.pushNext = false; return; }
    clearTimeout(H.saveTimer);
    H.saveTimer = setTimeout(() => {
      const p = new URLSearchParams();
      for (const r of H.runs || []) r.stateParams(p);
      for (const t of H.times || []) t.stateParams(p);
      if (H.compare && H.compare.layout !== 'side') p.set('layout', H.compare.layout);
      const hash = p.toString();
      const push = H.pushNext;
      H.pushNext = false;
      if (hash === location.hash.slice(1)) return;
      const url = hash ? '#' + hash : location.pathname + location.search;
      try {
        if (push) history.pushState(null, '', url); else history.replaceState(null, '', url);
      } catch (e) { /* a page without history */ }
    }, 150);
  };

  // Applies the fragment's state for this run (`p`: its parameters).
  R.restoreState = function (p) {
    const st = this.state;
    const get = (k) => p.get((this.index ? this.index + 1 + '.' : '') + k);
    const list = (k) => (get(k) ? get(k).split(SEP) : []);
    if (['stacked', 'normal', 'lines'].indexOf(get('view')) >= 0) st.view = get('view');
    st.fitY = get('fit') === null ? this.fitDefault() : get('fit') !== '0';
    if (['binary', 'decimal', 'hp2ps'].indexOf(get('units')) >= 0) st.units = get('units');
    st.hidden = new Set(list('hide'));
    st.linesHidden = new Set(list('lines'));
    st.added = list('add');
    this.addBands();
    if (this.tree) this.makeTree();
    this.fillLegend();
    if (get('q')) { this.searchBox.value = get('q'); this.setFilter(get('q'), true); }
    if (get('marks') && this.markFilter) { this.markFilter.value = get('marks'); this.state.markQuery = get('marks').toLowerCase(); }
    const [a, b] = [parseFloat(get('from')), parseFloat(get('to'))];
    if (isFinite(a) && isFinite(b)) this.zoomTo(a, b, true); else if (st.window) this.zoomTo(null, null, true); else this.redraw();
    this.syncLegend();
    this.renderRows();
    this.unitsChanged();
  };

  // Reads the fragment into every run (at the start, and when the reader edits it).
  H.restore = function () {
    const p = new URLSearchParams(location.hash.slice(1));
    H.restoring = true;
    try {
      if (H.compare && p.get('layout')) H.compare.setLayout(p.get('layout') === 'stacked' ? 'stacked' : 'side');
      for (const r of H.runs || []) r.restoreState(p);
      for (const t of H.times || []) t.restoreState(p);
      if (H.compare) H.compare.sync();
    } finally {
      H.restoring = false;
    }
  };

  // ---- Files the page saves ----

  // Saves `text` of type `type` as a file named `name`.
  H.save = function (text, type, name) {
    const url = URL.createObjectURL(new Blob([text], { type }));
    const a = el('a', { href: url, download: name });
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  };

  // Rows of fields as CSV (RFC 4180: quoted where needed, CRLF between rows); a name
  // that a spreadsheet would take for a formula is written with a ' before it.
  H.csvText = function (rows) {
    const field = (v) => {
      let s = String(v);
      // A text a spreadsheet would run as a formula is kept as text; a number,
      // negative or not, stays a number.
      if (!/^-?\d+(\.\d+)?(e[+-]?\d+)?$/.test(s) && /^[=+@\t\r]|^-[\d(]/.test(s)) s = "'" + s;
      return /[",\r\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
    };
    return rows.map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
  };

  // A number of a CSV (empty when there is none) in a unit of `size`: six significant
  // digits, and never fewer than its whole part (an area of 3,752,532 byte-seconds is
  // not 3752530).
  H.csvNumber = function (v, size) {
    if (v !== v || v === null || v === undefined) return '';
    const x = v / size;
    const whole = Math.abs(x) >= 1 ? Math.floor(Math.log10(Math.abs(x))) + 1 : 1;
    return String(+x.toPrecision(Math.min(21, Math.max(6, whole))));
  };

  R.copyLink = function (button) {
    H.copyLinkOf(button, () => this.saveState());
  };

  // Copies the page's address with the view in it (`save` writes the view first).
  H.copyLinkOf = function (button, save) {
    save();
    setTimeout(() => {
      const url = location.href;
      const label = button.textContent;
      const done = () => { button.textContent = 'Copied'; button.classList.add('done'); setTimeout(() => { button.textContent = label; button.classList.remove('done'); }, 1500); };
      const show = () => { button.title = url; button.textContent = 'Link in the address bar'; };
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(url).then(done, show); else show();
    }, 200);
  };

  // ---- The view as a picture of its own ----

  // The colours the page's style gives the picture, written into it.
  function paint(svg, css) {
    const v = (name) => css.getPropertyValue(name).trim();
    const set = (sel, attrs) => svg.querySelectorAll(sel).forEach((e) => { for (const k in attrs) e.setAttribute(k, attrs[k]); });
    svg.querySelectorAll('.frame, .title, title').forEach((e) => e.remove());
    set('text', { fill: v('--ink-2') });
    set('.axis, polyline.xt, polyline.yt', { stroke: v('--axis') });
    set('.grid line', { stroke: v('--line'), 'stroke-width': '0.5' });
    set('g.bands polygon', { stroke: v('--bg'), 'stroke-width': '0.35' });
    set('polygon.mark', { fill: v('--ink-3'), stroke: 'none' });
    set('[visibility="hidden"]', { display: 'none' });
  }

  // The chart as shown (the window, view, bands and units), with the marks and a legend
  // of the bands shown, as a standalone SVG document.
  R.exportSvg = function () {
    const css = getComputedStyle(document.documentElement);
    const v = (name) => css.getPropertyValue(name).trim();
    const [x0, y0, w, h] = this.viewBox.split(' ').map(Number);
    const legendWidth = 190;
    const head = 22;
    const svg = this.shown.cloneNode(true);
    svg.removeAttribute('class');
    svg.removeAttribute('aria-hidden');
    paint(svg, css);
    const defs = this.defs.cloneNode(true);
    svg.insertBefore(defs, svg.firstChild);
    const marks = this.markLines.cloneNode(true);
    marks.setAttribute('stroke', v('--ink-3'));
    marks.setAttribute('stroke-width', '0.5');
    marks.setAttribute('stroke-dasharray', '2 2');
    const labels = this.markLabels.cloneNode(true);
    labels.querySelectorAll('rect').forEach((r) => { r.setAttribute('fill', v('--bg')); r.setAttribute('fill-opacity', '0.85'); });
    labels.querySelectorAll('text').forEach((t) => t.setAttribute('fill', v('--ink-2')));
    svg.append(marks, labels);
    const width = w + legendWidth;
    const height = Math.max(h, 30 + 13 * (this.bands.length + this.lines.length)) + head;
    svg.setAttribute('viewBox', [x0, y0 - head, width, height].map(coord).join(' '));
    svg.setAttribute('width', coord(width * 1.5));
    svg.setAttribute('height', coord(height * 1.5));
    svg.setAttribute('font-family', 'system-ui, Helvetica, Arial, sans-serif');
    svg.insertBefore(svgEl('rect', { x: coord(x0), y: coord(y0 - head), width: coord(width), height: coord(height), fill: v('--bg') }), defs.nextSibling);
    const title = svgEl('text', { x: coord(x0 + 45), y: coord(y0 - head + 15), 'font-size': '11', fill: v('--ink'), 'font-weight': '600' });
    const f = this.facts || {};
    title.textContent = (this.d.file || this.d.job || 'hp2ps') + (f.breakdown ? ' · ' + (H.KINDS[f.breakdown] || '') + ', ' + f.breakdown : '') +
      (this.state.window ? ' · ' + H.when(this.state.window[0], this.d.sampleUnit) + ' to ' + H.when(this.state.window[1], this.d.sampleUnit) : '');
    svg.appendChild(title);
    // The legend: the bands shown, top of the stack first, then the lines.
    const legend = svgEl('g', { 'font-size': '8', fill: v('--ink') });
    let y = y0 + 14;
    const x = x0 + w + 6;
    for (const b of this.visible().slice().reverse()) {
      legend.appendChild(svgEl('rect', { x: coord(x), y: coord(y - 7), width: '8', height: '8', rx: '1.5', fill: b.colour }));
      const t = svgEl('text', { x: coord(x + 12), y: coord(y) });
      t.textContent = elide(b.name, 42);
      legend.appendChild(t);
      y += 13;
    }
    for (const l of this.lines) {
      if (this.state.linesHidden.has(l.name)) continue;
      legend.appendChild(svgEl('line', { x1: coord(x), x2: coord(x + 8), y1: coord(y - 3), y2: coord(y - 3), stroke: this.lineColour(l), 'stroke-width': '1.5' }));
      const t = svgEl('text', { x: coord(x + 12), y: coord(y) });
      t.textContent = l.name;
      legend.appendChild(t);
      y += 13;
    }
    svg.appendChild(legend);
    // (The declaration is put together: the page holds none of its own.)
    return '<' + '?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(svg) + '\n';
  };

  // The exported picture as a PNG data URL (a promise), at twice the SVG's size.
  R.exportPng = function () {
    const text = this.exportSvg();
    return new Promise((resolve, reject) => {
      const img = new Image();
      img.onload = () => {
        const c = el('canvas', { width: String(img.naturalWidth * 2), height: String(img.naturalHeight * 2) });
        const g = c.getContext('2d');
        g.scale(2, 2);
        g.drawImage(img, 0, 0);
        resolve(c.toDataURL('image/png'));
      };
      img.onerror = () => reject(new Error('the picture did not load'));
      img.src = 'data:image/svg+xml;base64,' + btoa(unescape(encodeURIComponent(text)));
    });
  };

  // Saves the view as `kind` (svg or png), named after the run's file.
  R.download = function (kind) {
    const base = (this.d.file || 'hp2ps').replace(/\.[^.]*$/, '') || 'hp2ps';
    const save = (href) => {
      const a = el('a', { href, download: base + '.' + kind });
      document.body.appendChild(a);
      a.click();
      a.remove();
    };
    if (kind === 'svg') {
      const url = URL.createObjectURL(new Blob([this.exportSvg()], { type: 'image/svg+xml' }));
      save(url);
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    } else this.exportPng().then(save, () => {});
  };

  // ---- Light or dark ----

  // Flips the scheme (remembered in this browser), and every run redraws in it.
  H.toggleTheme = function () {
    const next = H.dark() ? 'light' : 'dark';
    document.documentElement.dataset.theme = next;
    try { localStorage.setItem('hp2ps-theme', next); } catch (e) { /* no storage: this page only */ }
    for (const r of H.runs || []) r.themeChanged();
  };

  // The scheme chosen before, if any.
  H.loadTheme = function () {
    let t = null;
    try { t = localStorage.getItem('hp2ps-theme'); } catch (e) { /* no storage */ }
    if (t === 'light' || t === 'dark') document.documentElement.dataset.theme = t;
    // Back and forward: the state of that step of the history.
    if (!H.listening) {
      H.listening = true;
      window.addEventListener('popstate', () => { if (H.runs || H.times) H.restore(); });
    }
    if (window.matchMedia) {
      const m = window.matchMedia('(prefers-color-scheme: dark)');
      if (m.addEventListener) m.addEventListener('change', () => { for (const r of H.runs || []) r.themeChanged(); });
    }
  };

})(window.hp2ps);
