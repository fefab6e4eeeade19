// Measures one step of the what-if slider on a big build in headless
// Chromium (issue 36's target: ≤ 100 ms a step for 100,000 tasks): from the
// slider's input event to the end of the frame that shows the replay's wall
// time, as a person meets it. The worker keeps the prepared replay, so a
// step replays only what follows the task.
//
//   node tests/e2e/measure-whatif.mjs [NODES] [RUNS]
//
// NODES (default 35000: about 100,000 tasks at 2.9 tasks a node) is the
// size of a build simulated by distbuild-sim (200 hosts, 8 slots), written
// to the temp directory once. Each of RUNS (default 5) runs loads the page,
// gives it the log and its graph.json, opens the Levers view, selects the
// largest lever and moves its slider through 20 steps (5 % to 100 %). A
// step is timed inside the page (a timer queued from the next animation
// frame after the result shows), so the automation's latency is not in it.
// Prints median and min–max of the steps (and of the first step after the
// task's click, which asked for its slack and drag and so prepared the
// replay) as JSON. `longpole analyze` counts the tasks of the default
// build: 35,000 runs, 65,996 copies and 467 prepares, 101,463 in all.

import { openBuild, simulatedBuild, stats } from './harness.mjs';

const nodes = Number(process.argv[2] ?? 35000);
const runs = Number(process.argv[3] ?? 5);
const { log, graph } = simulatedBuild(nodes, 'whatif');

/** Moves the slider to `n` % and times it until the frame showing its result has ended, ms. */
const step = (page, n) =>
  page.evaluate(async (n) => {
    const slider = document.querySelector('[data-testid=what-if-slider]');
    const t0 = performance.now();
    slider.value = String(n);
    slider.dispatchEvent(new InputEvent('input', { bubbles: true }));
    const shown = () => document.querySelector(`[data-testid=what-if-result][data-speedup="${n}"]`);
    await new Promise((ok) => {
      if (shown()) return ok();
      const o = new MutationObserver(() => shown() && (o.disconnect(), ok()));
      o.observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
    return performance.now() - t0;
  }, n);

const first = [];
const steps = [];
for (let run = 0; run < runs; run += 1) {
  const app = await openBuild([log, graph]);
  const { page } = app;
  try {
    await page.getByTestId('show-levers').click();
    await page.getByTestId('lever').first().waitFor({ timeout: 300_000 });
    await page.getByTestId('lever').first().click();
    await page.getByTestId('what-if-slider').waitFor({ timeout: 300_000 });
    first.push(await step(page, 1));
    for (let n = 5; n <= 100; n += 5) steps.push(await step(page, n));
  } finally {
    await app.close();
  }
}
console.log(JSON.stringify({ nodes, runs, first_step_ms: stats(first), step_ms: stats(steps) }, null, 1));
