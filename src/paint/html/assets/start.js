// hp2ps's page: reads the data, makes a Run of every chart and a TimeProfile of every
// time profile, and restores the view the URL's fragment holds.
(function (H) {
  'use strict';

  // Starts the page on `data` with the runs' `sections`: also what a live page does
  // when its first census comes (live.js), so that it listens to the fragment too.
  H.start = function (data, sections) {
    H.loadTheme();
    // A run is a heap profile's chart (its scale, bands, …), a time profile's panel, or
    // both (one run of a program: linked, timelink.js).
    const heaps = data.runs.map((run, i) => (run.scale ? new H.Run(run, sections[i], i, data.font) : null));
    const runs = heaps.filter(Boolean);
    // For user scripts and tests: window.hp2ps.data, .runs and .times.
    H.data = data;
    H.runs = runs;
    H.times = data.runs.map((run, i) => (run.time ? new H.TimeProfile(run.time, sections[i], i, heaps[i]) : null)).filter(Boolean);
    if (runs.length > 1) H.compare = new H.Compare(runs, document.getElementById('compare'));
    if (H.times.length > 1) H.timeDiff = new H.TimeDiff(H.times, document.getElementById('compare'));
    H.skipLinks();
    if (location.hash.length > 1) H.restore();
    window.addEventListener('hashchange', () => H.restore());
    performance.mark('hp2ps-ready');
  };

  const source = document.getElementById('hp2ps-data');
  const data = source ? JSON.parse(source.textContent) : null;
  if (!data || data.format !== 'hp2ps-page') return;
  H.start(data, document.querySelectorAll('section.run'));
})(window.hp2ps);
