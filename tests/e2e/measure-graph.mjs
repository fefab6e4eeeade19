// Measures the Graph tab on a big build in headless Chromium: the time from
// clicking the tab to the first painted frame of the graph, and then the
// time each view change takes to paint (wheel zooms, drag pans, W/S/A/D,
// a double click on a node, Fit), as a person meets them.
//
//   node tests/e2e/measure-graph.mjs [NODES] [RUNS]
//
// NODES (default 100000) is the size of a build simulated by distbuild-sim
// (200 hosts, 8 slots; about 2.9 tasks per node), written to the temp
// directory once. Each of RUNS (default 5) runs loads the page, gives it the
// log and its graph.json, waits for `analysis-ready`, then opens the Graph
// tab and makes 30 view changes. A view change is timed inside the page,
// from the event to the end of the frame that shows it (a timer queued
// from the next animation frame), so the automation's latency is not in
// it. Prints median and min–max per measure as JSON.

import { openBuild, simulatedBuild, stats } from './harness.mjs';

const nodes = Number(process.argv[2] ?? 100000);
const runs = Number(process.argv[3] ?? 5);
const { log, graph } = simulatedBuild(nodes, 'graph');

const opening = [];
const views = { wheel: [], drag: [], keys: [], fit: [], 'fit-node': [] };
let drawn = {};
for (let run = 0; run < runs; run += 1) {
  const app = await openBuild([log, graph]);
  const { page } = app;
  try {
    // The tab's click and the graph's first painted frame, both on the page's clock.
    await page.evaluate(() => {
      window.__g = {};
      new MutationObserver(() => {
        if (window.__g.shown === undefined && document.querySelector('.graph[data-scale] .nodes[data-drawn]')) {
          window.__g.shown = performance.now();
          requestAnimationFrame(() => setTimeout(() => { window.__g.painted = performance.now(); }));
        }
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
      document.querySelector('[data-testid="tab-graph"]').addEventListener('click', () => { window.__g.clicked = performance.now(); }, { capture: true });
    });
    await page.getByTestId('tab-graph').click();
    await page.waitForFunction(() => window.__g.painted !== undefined, null, { timeout: 300_000 });
    const g = await page.evaluate(() => window.__g);
    opening.push(g.painted - g.clicked);

    // View changes, each timed from its event to its painted frame.
    const times = await page.evaluate(async () => {
      const frame = document.querySelector('.graph-frame');
      const svg = () => document.querySelector('.graph');
      const box = frame.getBoundingClientRect();
      const painted = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
      const changed = async (act) => {
        const before = svg().getAttribute('viewBox');
        const t = performance.now();
        act();
        await painted();
        const ms = performance.now() - t;
        if (svg().getAttribute('viewBox') === before) throw new Error('the view did not change');
        return ms;
      };
      const at = { clientX: box.left + box.width / 2, clientY: box.top + box.height / 2 };
      const mouse = (type, dx, dy, buttons) => svg().dispatchEvent(new MouseEvent(type, { bubbles: true, clientX: at.clientX + dx, clientY: at.clientY + dy, button: 0, buttons }));
      const key = (k) => document.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
      const out = { wheel: [], drag: [], keys: [], fit: [], 'fit-node': [] };
      // Zoom out from the opening view in 10 wheel steps, then back in 5.
      for (let i = 0; i < 15; i += 1) {
        out.wheel.push(await changed(() => frame.dispatchEvent(new WheelEvent('wheel', { ...at, deltaY: i < 10 ? 200 : -200, bubbles: true, cancelable: true }))));
      }
      // A drag of 10 steps.
      mouse('mousedown', 0, 0, 1);
      for (let i = 1; i <= 10; i += 1) out.drag.push(await changed(() => mouse('mousemove', -20 * i, -8 * i, 1)));
      mouse('mouseup', -200, -80, 0);
      for (const k of ['w', 's', 'a', 'd']) out.keys.push(await changed(() => key(k)));
      const node = document.querySelector('.graph .nodes [data-node]');
      out['fit-node'].push(await changed(() => node.dispatchEvent(new MouseEvent('dblclick', { bubbles: true }))));
      out.fit.push(await changed(() => document.querySelector('[data-testid="graph-fit"]').click()));
      return out;
    });
    for (const [k, v] of Object.entries(times)) views[k].push(...v);
    // What the Fit view drew, for the record.
    await page.getByTestId('graph-fit').click();
    drawn = await page.evaluate(() => ({
      laid_out: document.querySelector('[data-testid="graph-summary"]').textContent,
      fit_nodes_drawn: Number(document.querySelector('.graph .nodes').dataset.drawn),
      fit_edges_drawn: Number(document.querySelector('.graph .edges').dataset.drawn),
    }));
  } finally {
    await app.close();
  }
}

const all = Object.values(views).flat();
console.log(JSON.stringify({
  nodes,
  runs,
  graph: drawn,
  open_ms: stats(opening),
  view_ms: Object.fromEntries(Object.entries(views).map(([k, v]) => [k, stats(v)])),
  any_view_ms: stats(all),
}, null, 2));
