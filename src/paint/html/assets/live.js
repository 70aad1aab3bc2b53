// hp2ps's live page (hp2ps --serve, src/paint/html/live.rs): the interactive page of the
// run so far, following the run. The server sends the page's updates as server-sent
// events ("events", beside the page's address); each is a whole state of the page (the
// run's section with its picture, and its data, as the static page carries them), with
// what the page says about the run (waiting, live, ended, the censuses lost).
//
// An update takes the place of the run shown, and the reader's view is carried over:
// the view, the fitted y axis, the hidden bands and lines (by name), the filter, the
// table's order and the zoom. A window that reached the end of the run follows it (it
// slides, keeping its width); one in the past stays, and "Follow" brings it to the end.
// A dashed line marks the newest census. While a button is held down over the chart
// (a drag to zoom) updates wait.
//
// This is the only file that knows the page is live: it uses the page's Run (run.js),
// its update and state, zoomTo and syncLegend, and wraps redraw to place the marker.
(function (H) {
  'use strict';
  const { PAGE, coord, seconds, el, svgEl } = H;
  const R = H.Run.prototype;

  const main = document.querySelector('main');
  // Only the state is announced (it changes seldom); the counts change with every census.
  const bar = el('div', { class: 'live-bar', role: 'region', 'aria-label': 'The run followed live' });
  const dot = el('span', { class: 'live-dot', 'aria-hidden': 'true' });
  const state = el('strong', { class: 'live-state', role: 'status' }, 'Connecting');
  const facts = el('span', { class: 'live-facts' });
  const follow = el('button', { type: 'button', class: 'live-follow', hidden: '', title: 'Show the newest censuses again, as they come' }, 'Follow');
  const save = el('a', { class: 'live-save', href: 'save', download: '', title: 'The whole run so far as one offline page (what hp2ps --format html writes)' }, 'Save page');
  const notices = el('ul', { class: 'live-notices' });
  bar.append(dot, state, facts, follow, save, notices);
  main.insertBefore(bar, main.firstChild);

  // `drawn`: when each of the last updates reached the screen, and its newest census
  // (for scripts/live-latency.sh).
  const live = { seq: 0, status: null, pending: null, held: false, pointer: null, newest: null, drawn: [] };
  H.live = live;

  // ---- The marker of the newest census ----

  R.drawLiveMarker = function () {
    if (!this.liveMarker) {
      this.liveMarker = svgEl('g', { class: 'live-marker' });
      this.overlay.insertBefore(this.liveMarker, this.hit);
    }
    const g = this.liveMarker;
    g.replaceChildren();
    const t = live.newest;
    if (t === null || !this.inWindow(t)) return;
    const s = this.s;
    const x = coord(this.xOf(t));
    g.append(
      svgEl('line', { x1: x, x2: x, y1: coord(PAGE - s.y0), y2: coord(PAGE - s.y0 - s.height) }),
      svgEl('circle', { cx: x, cy: coord(PAGE - s.y0 - s.height), r: 2.5 }),
    );
  };

  const redraw = R.redraw;
  R.redraw = function (force) {
    redraw.call(this, force);
    this.drawLiveMarker();
    showFollow();
  };

  // ---- The view carried from one state of the page to the next ----

  // The page's Run keeps the reader's state across new data (Run.update: the view, the
  // fitted y axis, hidden bands and lines by name, the filter, the table's order, the
  // zoom). What only a growing run needs is here: a window that reached the end follows
  // it, a band shown alone stays alone as bands come, and a name the -L cut made equal
  // to another's (it gains " #1" once the other comes) stays hidden.
  const end = (run) => run.s.t0 + run.s.tSpan;

  function before(run) {
    const st = run.state;
    const w = st.window;
    const shown = run.bands.filter((b) => !run.isHidden(b));
    return {
      alone: run.bands.length > 1 && shown.length === 1 ? shown[0].name : null,
      width: w ? w[1] - w[0] : null,
      following: !w || w[1] >= end(run) - (end(run) - run.s.t0) * 1e-6,
    };
  }

  function after(run, v) {
    const st = run.state;
    const names = new Set(run.bands.map((b) => b.name));
    const renamed = (n) => (names.has(n) || !names.has(n + ' #1') ? n : n + ' #1');
    if (v.alone !== null && names.has(renamed(v.alone))) {
      const alone = renamed(v.alone);
      st.hidden = new Set(run.bands.filter((b) => b.name !== alone).map((b) => b.name));
    } else st.hidden = new Set([...st.hidden].map(renamed));
    if (v.width !== null && v.following) run.zoomTo(end(run) - v.width, end(run), true);
    else if (st.window) run.zoomTo(st.window[0], st.window[1], true);
    else run.redraw();
    run.syncLegend();
  }

  // ---- Applying an update ----

  function decode(html) {
    const t = document.createElement('textarea');
    t.innerHTML = html;
    return t.value;
  }

  function apply(msg) {
    const d = msg.page;
    if (!d || !d.runs || !d.runs[0]) return;
    const old = H.runs && H.runs[0];
    if (old) {
      // New data into the open run: its legend, table and icicle keep their places.
      const view = before(old);
      H.data = d;
      old.update(d.runs[0]);
      after(old, view);
    } else {
      // The run's section comes with its first page only: a viewer that missed it (its
      // stream joined later) takes the page as it now stands.
      if (msg.section === undefined) { location.reload(); return; }
      const t = document.createElement('template');
      t.innerHTML = msg.section;
      const section = t.content.querySelector('section.run');
      if (!section) return;
      main.appendChild(section);
      H.start(d, [section]);
    }
    if (msg.title) document.title = decode(msg.title);
    // The readout where the pointer rests.
    const run = H.runs[0];
    const p = live.pointer;
    if (p && document.elementFromPoint(p.x, p.y) === run.hit) run.hover(...run.toChart({ clientX: p.x, clientY: p.y }));
  }

  function showFollow() {
    const run = H.runs && H.runs[0];
    const w = run && run.state.window;
    follow.hidden = !(w && w[1] < end(run) - (end(run) - run.s.t0) * 1e-6);
  }

  follow.addEventListener('click', () => {
    const run = H.runs && H.runs[0];
    if (!run || !run.state.window) return;
    const [a, b] = run.state.window;
    run.zoomTo(end(run) - (b - a), end(run));
  });

  const STATES = {
    waiting: 'Waiting', live: 'Live', ended: 'The program ended', closed: 'The input closed',
  };

  function showStatus(s) {
    live.status = s;
    live.newest = s.newest === null || s.newest === undefined ? null : s.newest;
    bar.dataset.state = s.state;
    state.textContent = STATES[s.state] || s.state;
    const parts = [];
    if (s.state === 'waiting' || s.state === 'closed') parts.push(s.message);
    parts.push(s.censuses + (s.censuses === 1 ? ' census' : ' censuses'));
    if (live.newest !== null) parts.push('newest at ' + seconds(live.newest) + ' s');
    parts.push((s.axis === 'mutator' ? 'mutator' : 'elapsed') + ' time');
    if (s.run > 1) parts.push('run ' + s.run);
    parts.push(s.source);
    facts.textContent = parts.join(' · ');
    notices.replaceChildren(...s.notices.map(([, text]) => el('li', {}, text)));
    if (H.runs) for (const run of H.runs) run.drawLiveMarker();
  }

  function receive(msg) {
    if (msg.seq <= live.seq) return;
    live.seq = msg.seq;
    if (msg.page && live.held) { live.pending = msg; showStatus(msg.status); return; }
    if (msg.page) apply(msg);
    showStatus(msg.status);
    if (msg.page) {
      const newest = live.newest;
      requestAnimationFrame(() => {
        live.drawn.push([Date.now(), newest]);
        if (live.drawn.length > 2000) live.drawn.splice(0, 1000);
      });
    }
  }

  // Updates wait while a button is down over the chart (a drag to zoom).
  document.addEventListener('pointerdown', (e) => { live.held = !!(e.target.closest && e.target.closest('figure.chart')); });
  document.addEventListener('pointerup', () => {
    live.held = false;
    const msg = live.pending;
    live.pending = null;
    if (msg) { apply(msg); showStatus(msg.status); }
  });
  document.addEventListener('pointermove', (e) => { live.pointer = { x: e.clientX, y: e.clientY }; }, { passive: true });

  const events = new EventSource('events');
  events.addEventListener('update', (e) => {
    try { receive(JSON.parse(e.data)); } catch (err) { console.error('hp2ps: a live update could not be applied', err); }
  });
  events.addEventListener('error', () => {
    // Closed for good: the server refused (another hp2ps, another token); else the
    // browser tries again by itself.
    const gone = events.readyState === EventSource.CLOSED;
    if (gone || !live.status || live.status.state === 'live' || live.status.state === 'waiting') {
      bar.dataset.state = 'lost';
      state.textContent = gone ? 'Disconnected: the server is gone (reload to try again)' : 'Reconnecting';
    }
  });
  events.addEventListener('open', () => { if (live.status) showStatus(live.status); });
})(window.hp2ps);
