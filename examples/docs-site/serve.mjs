// Serves the example docs site: its pages, and under logs/ the app's
// bundled samples (../../samples) with the CORS header a page at another
// origin (the app's frame) needs to fetch them by URL. The pages name the
// app at http://127.0.0.1:8080/ (./scripts/start.sh); --app serves them
// naming another address instead.
//
//   node examples/docs-site/serve.mjs [--port 8081] [--app http://127.0.0.1:8080/]

import { createServer } from 'node:http';
import { readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const SITE = dirname(fileURLToPath(import.meta.url));
const SAMPLES = join(SITE, '..', '..', 'samples');
const WRITTEN_APP = 'http://127.0.0.1:8080/';
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml' };

/** The file a request path names, if it lies in the site or its logs. */
function fileOf(path) {
  const [root, rest] = path.startsWith('/logs/') ? [SAMPLES, path.slice('/logs/'.length)] : [SITE, path.slice(1) || 'index.html'];
  const file = normalize(join(root, rest));
  return file.startsWith(root) ? file : null;
}

/** Serves the site on 127.0.0.1:`port` (0: a free one), naming the app at `app`. */
export function serveDocs({ port = 8081, app = WRITTEN_APP } = {}) {
  const server = createServer((req, res) => {
    const file = fileOf(decodeURIComponent(new URL(req.url, 'http://localhost').pathname));
    let body;
    try {
      if (!file || !statSync(file).isFile()) throw new Error('not a file');
      body = readFileSync(file);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    if (extname(file) === '.html') body = Buffer.from(body.toString().replaceAll(WRITTEN_APP, app));
    res.writeHead(200, {
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      'Content-Length': body.length,
      'Cache-Control': 'no-cache',
      // The logs are fetched by the app's frame, at the app's origin.
      'Access-Control-Allow-Origin': '*',
    });
    res.end(body);
  });
  return new Promise((ok) => server.listen(port, '127.0.0.1', () => ok(server)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name, dflt) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : dflt;
  };
  const server = await serveDocs({ port: Number(arg('port', 8081)), app: arg('app', WRITTEN_APP) });
  console.log(`the docs site: http://127.0.0.1:${server.address().port}/`);
}
