// The example docs page's own script: it gives two of the views their logs
// through the element's API (a File, then bytes), and shows the name of the
// task selected in each view, as text, under it.

await customElements.whenDefined('longpole-view');

const problems = document.getElementById('problems');

/** Says what went wrong, as text. */
function problem(where, error) {
  problems.append(`${where}: ${error.code ?? 'error'}: ${error.message}`, document.createElement('br'));
}

for (const view of document.querySelectorAll('longpole-view')) {
  const out = document.getElementById(`${view.id}-selected`);
  view.addEventListener('selection', (e) => {
    out.textContent = e.detail.key ? e.detail.name : 'nothing';
  });
  view.addEventListener('error', (e) => problem(view.id, e.detail));
}

/** Fetches a log of this site. */
async function fetchLog(path) {
  const response = await fetch(path);
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response;
}

try {
  const ghc = await (await fetchLog('logs/ghc-testlog.eventlog')).blob();
  await document.getElementById('ghc').load(new File([ghc], 'ghc-testlog.eventlog'));
} catch (e) {
  problem('ghc', e);
}

try {
  const bench = await (await fetchLog('logs/evobench-sum_of_fibs.log.zstd')).arrayBuffer();
  await document.getElementById('bench').load(bench, 'sum_of_fibs.log.zstd');
} catch (e) {
  problem('bench', e);
}
