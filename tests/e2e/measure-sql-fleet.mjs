// The SQL tab over a folder of fleet tables, as a user meets it: the
// folder added on the tab (its files read where they lie), then every
// query of docs/fleet.md's cookbook, each timed from the click on Run to
// its rows shown. Beside it, the same queries in DuckDB in Python over the
// same folder (tests/fleet/sql_rows.py's engine, one process), same run.
//
//   RUNS=3 node tests/e2e/measure-sql-fleet.mjs FOLDER
//
// FOLDER is `longpole export --to parquet` output, e.g. of the first 1,000
// builds crates/bench/cli/fleet.sh makes.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serve } from '../../scripts/serve.mjs';
import { launchBrowser, stats, ROOT } from './harness.mjs';

const RUNS = Number(process.env.RUNS ?? 3);
const folder = process.argv[2];
if (!folder) {
  console.error('usage: RUNS=3 node tests/e2e/measure-sql-fleet.mjs FOLDER');
  process.exit(2);
}
const WEEK_END = "DATE '2024-11-25'";
const text = readFileSync(join(ROOT, 'docs', 'fleet.md'), 'utf8');
const queries = [...text.matchAll(/```sql\n-- cookbook: (\w+)\n([\s\S]*?)```/g)].filter(([, n]) => n !== 'views').map(([, n, q]) => [n, q.replaceAll('current_date', WEEK_END)]);

const server = await serve({ root: join(ROOT, 'dist'), port: 0, base: '/' });
const times = Object.fromEntries(queries.map(([n]) => [n, []]));
const adds = [];
try {
  for (let i = 0; i < RUNS; i++) {
    const { page, close, errors } = await launchBrowser();
    try {
      await page.goto(`http://127.0.0.1:${server.address().port}/`);
      await page.getByTestId('sample-ninja').click();
      await page.getByTestId('analysis-ready').waitFor();
      await page.getByTestId('tab-sql').click();
      await page.waitForFunction(() => !document.querySelector('[data-testid=sql-run]')?.disabled, null, { timeout: 300_000 });
      const t0 = Date.now();
      await page.getByTestId('sql-folder').setInputFiles(folder);
      await page.getByTestId('sql-loading').waitFor();
      await page.getByTestId('sql-loading').waitFor({ state: 'detached', timeout: 300_000 });
      if (await page.getByTestId('sql-failed').count()) throw new Error(await page.getByTestId('sql-failed').textContent());
      adds.push(Date.now() - t0);
      for (const [name, sql] of queries) {
        await page.getByTestId('sql-editor').fill(sql);
        const before = Date.now();
        const answers = Number(await page.getByTestId('sql').getAttribute('data-answers'));
        await page.getByTestId('sql-run').click();
        await page.waitForFunction((n) => Number(document.querySelector('[data-testid=sql]')?.dataset.answers) > n, answers, { timeout: 300_000 });
        times[name].push(Date.now() - before);
        if (await page.getByTestId('sql-error').count()) console.log(`# ${name}: ${await page.getByTestId('sql-error').textContent()}`);
      }
      if (errors.length) console.log('# page errors:', errors);
    } finally {
      await close();
    }
  }
} finally {
  server.close();
}
const python = join(ROOT, 'target', 'venv-tools', 'bin', 'python');
const script = `import duckdb, json, re, sys, time
text = open(sys.argv[1]).read()
qs = dict(re.findall(r"\`\`\`sql\\n-- cookbook: (\\w+)\\n(.*?)\`\`\`", text, re.S))
d = duckdb.connect()
d.sql(qs.pop('views').replace("'fleet/", "'" + sys.argv[2] + "/"))
out = {}
for n, q in qs.items():
    q = q.replace('current_date', sys.argv[3])
    d.sql(q).fetchall()
    t = time.perf_counter(); d.sql(q).fetchall(); out[n] = (time.perf_counter() - t) * 1000
print(json.dumps(out))`;
const native = JSON.parse(execFileSync(python, ['-c', script, join(ROOT, 'docs', 'fleet.md'), folder, WEEK_END]).toString());
const files = execFileSync('find', [folder, '-name', '*.parquet']).toString().trim().split('\n').length;
console.log(`${folder}: ${files} Parquet files; added on the tab in ${JSON.stringify(stats(adds))} ms`);
console.log('| query | in the page, ms (median, min–max) | DuckDB in Python, warm, ms |');
console.log('|---|---|---|');
for (const [name] of queries) {
  const s = stats(times[name]);
  console.log(`| ${name} | ${s.median} (${s.min}–${s.max}) | ${native[name].toFixed(0)} |`);
}
