// hp2ps's page: reads the data and makes a Run of every chart.
(function (H) {
  'use strict';

  const source = document.getElementById('hp2ps-data');
  const data = source ? JSON.parse(source.textContent) : null;
  if (!data || data.format !== 'hp2ps-page') return;
  const sections = document.querySelectorAll('section.run');
  const runs = data.runs.map((run, i) => new H.Run(run, sections[i], i, data.font));
  if (runs.length > 1) H.compare = new H.Compare(runs, document.getElementById('compare'));
  // For user scripts and tests: window.hp2ps.data and .runs.
  H.data = data;
  H.runs = runs;
  performance.mark('hp2ps-ready');
})(window.hp2ps);
