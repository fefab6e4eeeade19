// A small static file server for the built bundle (dist/), used by the
// README's first command and by the end-to-end tests. It serves under any
// base path, to prove that the bundle's URLs are all relative.
//
//   node scripts/serve.mjs [--port 8080] [--base /] [--root dist]

import { createServer } from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import { extname, join, normalize, resolve } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webmanifest': 'application/manifest+json',
  '.log': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** Starts serving `root` under `base` on 127.0.0.1:`port` (0 picks a free
 * port); with `cors: false`, no CORS header at all, as many hosts serve. */
export function serve({ root = 'dist', port = 8080, base = '/', cors = true } = {}) {
  const dir = resolve(root);
  const prefix = base.endsWith('/') ? base : `${base}/`;
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    let path = decodeURIComponent(url.pathname);
    if (!path.startsWith(prefix)) {
      res.writeHead(404).end('not found');
      return;
    }
    path = path.slice(prefix.length) || 'index.html';
    const file = normalize(join(dir, path));
    if (!file.startsWith(dir)) {
      res.writeHead(403).end('forbidden');
      return;
    }
    let size;
    try {
      const st = statSync(file);
      if (!st.isFile()) throw new Error('not a file');
      size = st.size;
    } catch {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, {
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      'Content-Length': size,
      'Cache-Control': 'no-cache',
      // embed.js loaded as a module by a docs site of another origin needs
      // CORS; as a classic script it does not (docs/embedding.md).
      ...(cors && file.endsWith('embed.js') ? { 'Access-Control-Allow-Origin': '*' } : {}),
    });
    createReadStream(file).pipe(res);
  });
  return new Promise((ok) => server.listen(port, '127.0.0.1', () => ok(server)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name, dflt) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : dflt;
  };
  const server = await serve({ root: arg('root', 'dist'), port: Number(arg('port', 8080)), base: arg('base', '/') });
  const { port } = server.address();
  console.log(`longpole is served on http://127.0.0.1:${port}${arg('base', '/')} (Ctrl-C stops it)`);
}
