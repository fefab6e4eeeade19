// What the SQL tab's measuring scripts share (measure-sql.mjs,
// trace-sql.mjs): their input and the way to the tab.
import { simulatedBuild } from './harness.mjs';

/** FILE... from the command line, or a simulated build of about 100,000 tasks (34,500 nodes). */
export function sqlFiles(args = process.argv.slice(2)) {
  if (args.length > 0) return args;
  const { log, graph } = simulatedBuild(34_500, 'sql');
  return [log, graph];
}

/** Opens `files` on the page at `url`, waits for the analysis, clicks the SQL tab; the time of the click (ms). */
export async function openSqlTab(page, url, files) {
  await page.goto(url);
  await page.getByTestId('landing').waitFor();
  await page.getByTestId('file-input').setInputFiles(files);
  await page.getByTestId('analysis-ready').waitFor({ timeout: 300_000 });
  const t0 = Date.now();
  await page.getByTestId('tab-sql').click();
  return t0;
}
