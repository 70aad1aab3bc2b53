// hp2ps's live page (hp2ps --serve, src/paint/html/live.rs): the interactive page of the
// run so far, following the run. The server sends the page's updates as server-sent
// events ("events", beside the page's address): the whole state (the page's data, and
// the run's section with its picture when it is the run's first), or what changed since
// the update before (a patch of the data: src/run/serve/delta.rs), with what the page
// says about the run (waiting, live, ended, the censuses lost, how old the newest is).
//
// One browser holds one event stream, whatever its number of tabs (a browser opens at
// most six connections to a server): the tab that holds a lock named after the page's
// address leads, and hands every update to the others through a BroadcastChannel; when
// it closes, another takes the lock and connects. A browser without locks (a page not
// served from loopback or https) holds a stream per tab, closed while the tab is hidden.
//
// An update takes the place of the run shown, and the reader's view is carried over:
// the view, the fitted y axis, the hidden bands and lines (by name), the filter, the
// table's order and the zoom. A window that reached the end of the run follows it (it
// slides, keeping its width); one in the past stays, and "Follow" brings it to the end.
// A new run (the program started again) starts with the whole run in view. Each band
// keeps the colour it first had for the whole run. A dashed line marks the newest
// census. Updates are drawn no faster than the page draws them (a data patch is applied
// at once, the drawing waits for twice the time the last one took), not while a button
// is held down over the chart (a drag to zoom), and not while the tab is hidden.
//
// This is the only file that knows the page is live: it uses the page's Run (run.js),
// its update and state, zoomTo, syncLegend, buildMarks and fillMarkList, and wraps
// redraw to place the marker.
(function (H) {
  'use strict';
  const { PAGE, coord, seconds, el, svgEl } = H;
  const R = H.Run.prototype;

  const main = document.querySelector('main');
  // Only the state is announced (it changes seldom); the counts change with every census.
  const bar = el('div', { class: 'live-bar', role: 'region', 'aria-label': 'The run followed live' });
  const dot = el('span', { class: 'live-dot', 'aria-hidden': 'true' });
  const state = el('strong', { class: 'live-state', role: 'status' }, 'Connecting');
  const age = el('span', { class: 'live-age' });
  const facts = el('span', { class: 'live-facts' });
  const follow = el('button', { type: 'button', class: 'live-follow', hidden: '', title: 'Show the newest censuses again, as they come' }, 'Follow');
  const save = el('a', { class: 'live-save', href: 'save', download: '', title: 'The whole run so far as one offline page (what hp2ps --format html writes)' }, 'Save page');
  const notices = el('ul', { class: 'live-notices' });
  bar.append(dot, state, age, facts, follow, save, notices);
  main.insertBefore(bar, main.firstChild);

  // `drawn`: when each of the last updates reached the screen, and its newest census
  // (for scripts/live-latency.sh). `data`: the page's data as the last update left it
  // (a patch applies to it). `colours`: each band's colour in this run.
  const live = {
    seq: 0, status: null, heard: 0, data: null, title: null, run: null, pending: null, held: false, pointer: null,
    newest: null, drawn: [], colours: new Map(), palette: [], cost: 0, last: 0, timer: null, lead: false, link: 'connecting',
  };
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

  // ---- What changed: a patch of the data (src/run/serve/delta.rs's format) ----

  // `old` made new by `p`; what did not change is shared, nothing is changed in place.
  function patch(old, p) {
    if ('$r' in p) return p.$r;
    if ('$o' in p) {
      const out = Object.assign({}, old);
      for (const k of Object.keys(p.$o)) {
        const q = p.$o[k];
        if ('$x' in q) delete out[k]; else out[k] = patch(out[k], q);
      }
      return out;
    }
    if ('$s' in p) return old.slice(p.$s).concat(p.$a);
    if ('$d' in p) {
      // Steps from the start: kept (n > 0), dropped (n < 0), or new items.
      const out = [];
      let at = 0;
      for (const step of p.$d) {
        if (Array.isArray(step)) { for (const v of step) out.push(v); } else if (step > 0) { for (let k = 0; k < step; k++) out.push(old[at + k]); at += step; } else at -= step;
      }
      return out;
    }
    const out = old.slice();
    for (const i of Object.keys(p.$e)) out[+i] = patch(out[+i], p.$e[i]);
    return out;
  }

  // ---- Colours that stay ----

  // Each band keeps the colour (and line colours, pattern) it was first drawn in during
  // this run. A band new to the run keeps the colour the server gave it unless a band of
  // the run has it already; then it takes a colour of the run's, or of the page's spare
  // ones, that no band has (else none shown has). Two bands shown never share one: of
  // two that kept the same (one was not shown when the other came), the later takes
  // another.
  function keepColours(d) {
    const keys = ['colour', 'line', 'pattern'];
    const look = (c) => ({ colour: c.colour, line: c.line, pattern: c.pattern === undefined ? null : c.pattern });
    const taken = new Set([...live.colours.values()].map((c) => c.colour));
    const shown = new Set();
    const choices = () => live.palette.concat((d.spare || []).map(look));
    for (const b of d.bands) {
      let mine = live.colours.get(b.name);
      if (!mine || shown.has(mine.colour)) {
        const own = look(b);
        mine = !taken.has(own.colour) && !shown.has(own.colour) ? own
          : choices().find((c) => !taken.has(c.colour) && !shown.has(c.colour))
            || choices().find((c) => !shown.has(c.colour)) || own;
        live.colours.set(b.name, mine);
        taken.add(mine.colour);
        if (!live.palette.some((c) => c.colour === mine.colour)) live.palette.push(mine);
      }
      for (const k of keys) b[k] = mine[k];
      shown.add(mine.colour);
    }
  }

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

  function after(run, v, fresh) {
    const st = run.state;
    const names = new Set(run.bands.map((b) => b.name));
    const renamed = (n) => (names.has(n) || !names.has(n + ' #1') ? n : n + ' #1');
    if (v.alone !== null && names.has(renamed(v.alone))) {
      const alone = renamed(v.alone);
      st.hidden = new Set(run.bands.filter((b) => b.name !== alone).map((b) => b.name));
    } else st.hidden = new Set([...st.hidden].map(renamed));
    // A new run's times are not the old one's: its window would show a stretch of it
    // that means nothing (the old run's zoom as a sliding window).
    if (fresh) run.zoomTo(null, null, true);
    else if (v.width !== null && v.following) run.zoomTo(end(run) - v.width, end(run), true);
    else if (st.window) run.zoomTo(st.window[0], st.window[1], true);
    else run.redraw();
    run.syncLegend();
  }

  // The list of marks under the chart follows the run's marks.
  function followMarks(run) {
    const n = run.d.marks.t.length;
    if (!run.marksBox) { run.buildMarks(); return; }
    run.marksBox.hidden = n === 0;
    run.marksBox.querySelector('summary').textContent = n === 1 ? '1 mark' : n + ' marks';
    run.fillMarkList();
  }

  // ---- Applying an update ----

  function decode(html) {
    const t = document.createElement('textarea');
    t.innerHTML = html;
    return t.value;
  }

  function apply(msg) {
    const sent = msg.page;
    if (!sent || !sent.runs || !sent.runs[0]) return;
    const fresh = live.run !== null && msg.status.run !== live.run;
    if (fresh) { live.colours.clear(); live.palette = []; }
    live.run = msg.status.run;
    // The page draws a copy whose bands wear the run's colours; the data as sent stays
    // as it was, for the next patch (H.live.data).
    const first = Object.assign({}, sent.runs[0], { bands: sent.runs[0].bands.map((b) => Object.assign({}, b)) });
    const d = Object.assign({}, sent, { runs: [first].concat(sent.runs.slice(1)) });
    keepColours(first);
    const old = H.runs && H.runs[0];
    if (old) {
      // New data into the open run: its legend, table and icicle keep their places.
      const view = before(old);
      H.data = d;
      old.update(d.runs[0]);
      after(old, view, fresh);
      followMarks(old);
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
    if (live.title) document.title = decode(live.title);
    // The readout where the pointer rests.
    const run = H.runs[0];
    const p = live.pointer;
    if (p && document.elementFromPoint(p.x, p.y) === run.hit) run.hover(...run.toChart({ clientX: p.x, clientY: p.y }));
  }

  // Draws the newest state when the page can: not during a drag, not while hidden, and
  // no sooner than twice the time the last drawing took after it.
  function schedule() {
    if (!live.pending || live.held || document.hidden || live.timer !== null) return;
    const wait = Math.max(0, live.last + 2 * live.cost - performance.now());
    live.timer = setTimeout(() => requestAnimationFrame(draw), wait);
  }

  function draw() {
    live.timer = null;
    const msg = live.pending;
    if (!msg || live.held || document.hidden) return;
    live.pending = null;
    const start = performance.now();
    apply(msg);
    showStatus(msg.then || msg.status);
    live.last = performance.now();
    live.cost = live.last - start;
    const newest = live.newest;
    requestAnimationFrame(() => {
      live.drawn.push([Date.now(), newest]);
      if (live.drawn.length > 2000) live.drawn.splice(0, 1000);
    });
    if (H.runs) for (const run of H.runs) run.drawLiveMarker();
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

  // ---- What the bar says ----

  const STATES = {
    waiting: 'Waiting', live: 'Live', ended: 'The program ended', closed: 'The input closed',
  };
  const LINKS = {
    reconnecting: 'Reconnecting',
    gone: 'Disconnected: the server is gone (reload to try again)',
    moved: 'Reconnecting (another viewer took this stream\u2019s place)',
  };

  function showStatus(s) {
    live.status = s;
    // Counted from when the status was heard, not drawn (a page waits to be drawn).
    live.heard = s.heard === undefined ? performance.now() : s.heard;
    live.newest = s.newest === null || s.newest === undefined ? null : s.newest;
    const parts = [];
    if (s.state === 'waiting' || s.state === 'closed') parts.push(s.message);
    parts.push(s.censuses + (s.censuses === 1 ? ' census' : ' censuses'));
    if (live.newest !== null) parts.push('newest at ' + seconds(live.newest) + ' s');
    parts.push((s.axis === 'mutator' ? 'mutator' : 'elapsed') + ' time');
    if (s.run > 1) parts.push('run ' + s.run);
    parts.push(s.source);
    if (s.kept) parts.push(s.kept);
    if (!live.lead && !live.shared) parts.push('a tab of its own: a browser gives at most 6 visible tabs of this page their updates');
    facts.textContent = parts.join(' \u00b7 ');
    notices.replaceChildren(...s.notices.map(([, text]) => el('li', {}, text)));
    tick();
  }

  // How old the newest census is, on this page's clock (the server says how old it was
  // when it sent the update); after a few of the usual gaps without one, that the
  // program may be idle (GHC takes no census while it is idle) or gone.
  function tick() {
    const s = live.status;
    if (!s) return;
    let text = '';
    let quiet = false;
    const since = s.since_newest;
    if (live.link !== 'open' && live.link !== 'shared' && (s.state === 'live' || s.state === 'waiting')) {
      bar.dataset.state = 'lost';
      state.textContent = LINKS[live.link] || 'Connecting';
    } else {
      bar.dataset.state = s.state;
      state.textContent = STATES[s.state] || s.state;
    }
    if (since !== null && since !== undefined && s.state === 'live') {
      const ago = Math.max(0, Math.round(since + (performance.now() - live.heard) / 1000));
      const usual = s.gap === null || s.gap === undefined ? 3 : s.gap;
      quiet = ago >= Math.max(5, 3 * usual);
      text = quiet
        ? 'no data for ' + ago + ' s: the program may be idle (GHC takes no census while it is idle) or gone'
        : 'newest census ' + ago + ' s ago';
      if (quiet && bar.dataset.state === 'live') { bar.dataset.state = 'quiet'; state.textContent = 'Quiet'; }
    }
    age.textContent = text;
  }
  setInterval(tick, 1000);

  // ---- Hearing updates ----

  // One update, as the server or the leading tab sent it: its data patched at once, its
  // drawing when the page can.
  function receive(msg) {
    if (msg.seq <= live.seq) return;
    if (msg.status) msg.status.heard = performance.now();
    if (msg.patch) {
      if (live.data === null || msg.base !== live.seq) { resync(); return; }
      msg.page = patch(live.data, msg.patch);
    }
    live.seq = msg.seq;
    live.heardStatus = msg.status;
    if (msg.title) live.title = msg.title;
    // What the bar says goes with the chart it speaks of: with a page waiting to be
    // drawn, when it is drawn; else at once (the program's end, say).
    if (msg.page) {
      live.data = msg.page;
      // The section of a first page is kept until it is drawn.
      if (live.pending && live.pending.section !== undefined && msg.section === undefined && live.pending.status.run === msg.status.run) msg.section = live.pending.section;
      live.pending = msg;
    } else if (live.pending && live.pending.status.run === msg.status.run) live.pending.status = msg.status;
    // Another run's status (the next run waits, its page to come) does not become the
    // waiting page's: drawn as the next run's, that page would reset the reader's view,
    // and the next run's first page would keep this one's colours and zoom. It is said
    // once the page is drawn.
    else if (live.pending) live.pending.then = msg.status;
    else showStatus(msg.status);
    schedule();
  }

  function heard(text, from) {
    try { receive(JSON.parse(text)); } catch (err) { console.error('hp2ps: a live update could not be applied (' + from + ')', err); }
  }

  // ---- The stream, and the tabs that share it ----

  const name = 'hp2ps-live ' + location.pathname;
  const channel = 'BroadcastChannel' in window && navigator.locks ? new BroadcastChannel(name) : null;
  let events = null;

  function tell(message) { if (channel && live.lead) channel.postMessage(message); }

  function setLink(link) {
    live.link = link;
    tell({ type: 'link', link });
    tick();
  }

  function connect() {
    if (events) events.close();
    // A stream that takes over from one this tab had names the last update it took, so
    // that the server gives it the newest page whole (and a run's end it missed), not
    // what a new tab is given: a tab back from hidden kept its live chart of a run that
    // ended. The browser's own reconnections say it in Last-Event-ID.
    events = new EventSource(live.seq > 0 ? 'events?after=' + live.seq : 'events');
    events.addEventListener('update', (e) => { heard(e.data, 'stream'); tell({ type: 'update', text: e.data }); });
    events.addEventListener('closed', () => setLink('moved'));
    events.addEventListener('error', () => {
      // Closed for good: the server refused (another hp2ps, another token); else the
      // browser tries again by itself.
      setLink(events.readyState === EventSource.CLOSED ? 'gone' : 'reconnecting');
    });
    events.addEventListener('open', () => setLink('open'));
  }

  // A patch that does not follow what this tab has: the whole state again.
  function resync() {
    if (live.lead || !channel) connect();
    else channel.postMessage({ type: 'want' });
  }

  // The whole state as this tab has it, for a tab that joins.
  // Its status the newest heard, saying how old the newest census is as of now (the
  // other tab's clock starts when it hears it).
  function whole() {
    const heard = live.pending ? live.pending.status : live.status;
    const status = Object.assign({}, heard);
    delete status.heard;
    if (typeof heard.since_newest === 'number' && heard.heard !== undefined) {
      status.since_newest = heard.since_newest + (performance.now() - heard.heard) / 1000;
    }
    return JSON.stringify({ seq: live.seq, status, title: live.title, page: live.data });
  }

  if (channel) {
    live.shared = true;
    channel.addEventListener('message', (e) => {
      const m = e.data;
      if (live.lead) { if (m.type === 'want' && (live.status || live.pending)) channel.postMessage({ type: 'whole', text: whole() }); return; }
      if (m.type === 'update' || m.type === 'whole') heard(m.text, 'another tab');
      else if (m.type === 'link') { live.link = m.link === 'open' ? 'shared' : m.link; tick(); }
    });
    // Until this tab leads, another does: it is asked for the state now.
    live.link = 'shared';
    channel.postMessage({ type: 'want' });
    navigator.locks.request(name, () => {
      live.lead = true;
      connect();
      // Held while the tab lives.
      return new Promise(() => {});
    });
  } else {
    connect();
    // Alone, a hidden tab gives its connection back (a browser has six per server).
    document.addEventListener('visibilitychange', () => {
      if (document.hidden) { if (events) events.close(); events = null; } else connect();
    });
  }

  // ---- Drawing waits for the reader ----

  // Updates wait while a button is down over the chart (a drag to zoom).
  document.addEventListener('pointerdown', (e) => { live.held = !!(e.target.closest && e.target.closest('figure.chart')); });
  document.addEventListener('pointerup', () => { live.held = false; schedule(); });
  document.addEventListener('pointermove', (e) => { live.pointer = { x: e.clientX, y: e.clientY }; }, { passive: true });
  document.addEventListener('visibilitychange', schedule);

  // A page loaded with a run: its bands' colours are the run's from now on.
  if (H.data && H.data.runs && H.data.runs[0]) keepColours(H.data.runs[0]);
})(window.hp2ps);
