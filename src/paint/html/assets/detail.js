// hp2ps's page: finer samples for a zoomed chart, from the data's levels of detail.
//
// The page draws the samples the SVG draws. Zoomed in, that would be a few of them, where
// a chart of the window alone draws as many as the whole: so the data also has levels
// (src/aggregate/page.rs), level k cutting the run's time into 10^k tiles that each keep
// what a chart of the tile alone would keep. A window is drawn from the coarsest level
// whose tiles have, inside the window, at least as many samples as the page draws across
// the whole run (else the finest): their samples, joined, take the place of the drawn
// samples in `times` and every band's `values` until the window changes.
(function (H) {
  'use strict';
  const R = H.Run.prototype;

  // The first of the times `ts` (in order) at or after t (`after`: after t).
  function bound(ts, t, after) {
    let lo = 0;
    let hi = ts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ts[mid] < t || (after && ts[mid] === t)) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  // How many of the times `ts` lie in [a, b].
  const inside = (ts, a, b) => bound(ts, b, true) - bound(ts, a, false);

  // The level and tiles to draw the window from, [level, first tile, last tile]; null:
  // the drawn samples.
  // `rest`: the bands not drawn are needed (one is drawn): only levels that carry them.
  R.pickDetail = function (rest) {
    const w = this.state.window;
    const levels = this.d.detail;
    const base = this.base.times;
    if (!w || !levels.length || base.length < 2) return null;
    const want = base.length;
    if (inside(base, w[0], w[1]) >= want) return null;
    const t0 = base[0];
    const span = base[base.length - 1] - t0;
    let pick = null;
    for (let L = 0; L < levels.length; L++) {
      if (rest && !levels[L].rest) break;
      const tiles = levels[L].tiles;
      const n = tiles.length;
      const tile = (t) => Math.min(n - 1, Math.max(0, Math.floor(((t - t0) / span) * n)));
      const [j0, j1] = [tile(w[0]), tile(w[1])];
      let count = 0;
      for (let j = j0; j <= j1; j++) count += inside(tiles[j].times, w[0], w[1]);
      pick = [L, j0, j1];
      if (count >= want) break;
    }
    return pick;
  };

  // Draws from the samples the window needs: the level's tiles joined (a tile holds one
  // sample beyond each of its ends, which its neighbour holds too), or the drawn samples.
  // With a band of OTHER or a trace drawn: from the samples that carry those bands (the
  // levels that do, else the page's thinned set of them when its budget made one).
  R.useDetail = function () {
    const rest = this.state.added.length > 0;
    const pick = this.pickDetail(rest);
    const thinned = !pick && rest && this.restBase;
    const key = pick ? pick.join(':') : thinned ? 'rest' : 'base';
    if (key === this.detailKey) return;
    this.detailKey = key;
    this.state.at = null;
    const src = pick ? this.joinTiles(pick) : thinned ? this.restBase : this.base;
    this.times = src.times;
    this.totalsNow = src.totals;
    this.drawn.forEach((b, k) => { b.values = b.raw = src.values[k]; });
    this.rest.forEach((r, j) => { r.values = src.rest[j] || null; });
    for (const b of this.bands) if (b.added) b.values = b.rest.values || new Float64Array(this.times.length);
    this.refreshOther();
  };

  R.joinTiles = function ([L, j0, j1]) {
    const tiles = this.d.detail[L].tiles.slice(j0, j1 + 1);
    const picked = [];
    let last = -Infinity;
    tiles.forEach((tile, j) => tile.times.forEach((t, i) => {
      if (t > last) { picked.push(j, i); last = t; }
    }));
    const n = picked.length / 2;
    const column = (c) => {
      const v = new Float64Array(n);
      for (let m = 0; m < n; m++) v[m] = tiles[picked[2 * m]].values[c][picked[2 * m + 1]];
      return v;
    };
    const times = new Float64Array(n);
    for (let m = 0; m < n; m++) times[m] = tiles[picked[2 * m]].times[picked[2 * m + 1]];
    const drawn = this.drawn.length;
    const totals = new Float64Array(n);
    for (let m = 0; m < n; m++) {
      const tile = tiles[picked[2 * m]];
      totals[m] = tile.totals && tile.totals.length ? tile.totals[picked[2 * m + 1]] : NaN;
    }
    return {
      times,
      values: this.drawn.map((b, k) => column(k)),
      rest: this.d.detail[L].rest ? this.rest.map((r, j) => column(drawn + j)) : [],
      totals,
    };
  };

  // Whether the samples shown are every sample of the profile in the window.
  R.everySample = function () {
    if (this.detailKey === 'rest') return false;
    const pick = this.pickDetail(this.detailKey !== 'base' && this.state.added.length > 0);
    return pick ? this.d.detail[pick[0]].whole : this.base.times.length === this.d.samples;
  };

  // The samples inside the window (the whole run unzoomed): [first, last] index.
  R.inside = function () {
    const [a, b] = this.span();
    return [bound(this.times, a, false), bound(this.times, b, true) - 1];
  };
})(window.hp2ps);
