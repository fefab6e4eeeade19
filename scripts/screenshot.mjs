// Takes the README's screenshot: the app in Chromium (Debian's, through
// playwright-core, as the tests drive it) showing the simulated build
// sample, its critical path on the timeline. Needs a built dist/.
//
//   node scripts/screenshot.mjs [OUT]    (OUT defaults to docs/screenshot.png)

import { join } from 'node:path';
import { openApp, ROOT } from '../tests/e2e/harness.mjs';

const out = process.argv[2] ?? join(ROOT, 'docs', 'screenshot.png');
const app = await openApp();
try {
  await app.page.setViewportSize({ width: 1280, height: 760 });
  await app.page.emulateMedia({ colorScheme: 'light' });
  await app.page.getByTestId('sample-distbuild').click();
  await app.page.getByTestId('analysis-ready').waitFor({ timeout: 60_000 });
  await app.page.getByTestId('timeline-chart').waitFor();
  // Let the chart settle (fonts, the first frame of the canvas).
  await app.page.waitForTimeout(500);
  await app.page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await app.close();
}
