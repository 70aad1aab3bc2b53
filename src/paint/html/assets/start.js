// hp2ps's page: reads the data, makes a Run of every chart, and restores the view the
// URL's fragment holds.
(function (H) {
  'use strict';

  // Starts the page on `data` with the runs' `sections`: also what a live page does
  // when its first census comes (live.js), so that it listens to the fragment too.
  H.start = function (data, sections) {
    H.loadTheme();
    const runs = data.runs.map((run, i) => new H.Run(run, sections[i], i, data.font));
    // For user scripts and tests: window.hp2ps.data and .runs.
    H.data = data;
    H.runs = runs;
    if (runs.length > 1) H.compare = new H.Compare(runs, document.getElementById('compare'));
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
