// The SQL tab's engine: DuckDB-wasm (npm @duckdb/duckdb-wasm, pinned in
// package.json), bundled with its Arrow library by scripts/build-sql-engine.mjs
// into dist/sql/engine.js beside DuckDB's worker and WebAssembly. The page
// imports it only when the SQL tab is first opened (boot.js, longpoleSql);
// nothing of it is fetched before. It never fetches anything else: DuckDB's
// extension autoloading is off, and the Content-Security-Policy would refuse
// it anyway.
//
// The page talks to it through `open()`'s engine: tables come in as Arrow IPC
// streams, made by the export worker (src/export_worker.rs) of the run or of a
// folder of fleet tables (DuckDB-wasm reads no Parquet without an extension
// from the internet); a query's result stays here, as Arrow, and the page asks for
// pages of it as JSON text, for its CSV, or for it sorted by a column.

import * as duckdb from '@duckdb/duckdb-wasm';
import { tableFromIPC } from 'apache-arrow';

/** A file beside this module. */
const here = (file) => new URL(file, import.meta.url).href;

/** A value of an Arrow cell as JSON: numbers stay numbers (a BIGINT beyond 2^53 becomes text), times ISO text. */
function jsonValue(v, type) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (v instanceof Date) return v.toISOString();
  const id = type?.typeId;
  // Timestamps (type 10) and dates (type 8) arrive as ms since 1970.
  if (id === 10 && typeof v === 'number') return new Date(v).toISOString();
  if (id === 8 && typeof v === 'number') return new Date(v).toISOString().slice(0, 10);
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return Number.isNaN(v) ? null : v;
  if (v instanceof Uint8Array) return `<${v.length} bytes>`;
  if (typeof v.toJSON === 'function') return JSON.stringify(v.toJSON(), (_, x) => (typeof x === 'bigint' ? x.toString() : x));
  return String(v);
}

/** A value as CSV text: quoted when it holds a comma, a quote or a line end. */
function csvCell(v) {
  if (v === null) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** DuckDB's message with each paragraph once (the worker repeats the position's). */
function once(message) {
  const seen = new Set();
  return message
    .split('\n\n')
    .filter((p) => !seen.has(p) && seen.add(p))
    .join('\n\n');
}

/** A DuckDB identifier, quoted. */
const quote = (name) => `"${String(name).replaceAll('"', '""')}"`;

/** The engine the page holds. */
class Engine {
  constructor(db, conn) {
    this.db = db;
    this.conn = conn;
    /** The last result: an Arrow table, its query, and its sort. */
    this.result = null;
  }

  /** Drops every table and view: another run's tables come next. */
  async reset() {
    const t = await this.conn.query("SELECT table_name, table_type FROM information_schema.tables WHERE table_schema = 'main'");
    for (const row of t.toArray()) {
      await this.conn.query(`DROP ${row.table_type === 'VIEW' ? 'VIEW' : 'TABLE'} IF EXISTS ${quote(row.table_name)}`);
    }
    this.result = null;
  }

  /** Adds table `name` from an Arrow IPC stream (replacing one of that name). */
  async addArrow(name, bytes) {
    const table = tableFromIPC(bytes);
    await this.conn.query(`DROP TABLE IF EXISTS ${quote(name)}`);
    if (table.numRows > 0) {
      // The stream as it came: DuckDB reads it in its worker, nothing is encoded again here.
      await this.conn.insertArrowFromIPCStream(bytes, { name, create: true });
    } else {
      // No batch to insert: the table is made from the schema alone.
      const columns = table.schema.fields.map((f) => `${quote(f.name)} ${sqlType(f.type)}`).join(', ');
      await this.conn.query(`CREATE TABLE ${quote(name)} (${columns})`);
    }
  }

  /** The tables and their columns, as JSON text: [{table, columns: [{name, type}]}]. */
  async schema() {
    const t = await this.conn.query(
      "SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'main' ORDER BY table_name, ordinal_position",
    );
    const tables = new Map();
    for (const row of t.toArray()) {
      if (!tables.has(row.table_name)) tables.set(row.table_name, []);
      tables.get(row.table_name).push({ name: row.column_name, type: row.data_type });
    }
    return JSON.stringify([...tables].map(([table, columns]) => ({ table, columns })));
  }

  /**
   * Runs `sql` (sorted by the column named `by`, descending if `desc`, when `by` is not empty)
   * and keeps its result. Returns JSON text: {columns: [{name, type}], row_count, elapsed_ms}.
   * A failed query throws DuckDB's own message, which names the position.
   */
  async run(sql, by, desc) {
    const began = performance.now();
    const text = sql.trim().replace(/;\s*$/, '');
    const sorted = by ? `SELECT * FROM (${text}) ORDER BY ${quote(by)} ${desc ? 'DESC' : 'ASC'} NULLS LAST` : text;
    let table;
    try {
      table = await this.conn.query(sorted);
    } catch (e) {
      throw new Error(once(String(e?.message ?? e)));
    }
    this.result = table;
    const columns = table.schema.fields.map((f) => ({ name: f.name, type: String(f.type) }));
    return JSON.stringify({ columns, row_count: table.numRows, elapsed_ms: performance.now() - began });
  }

  /**
   * Runs `sql` without keeping its result (the one shown stays) and answers its head and its
   * first `count` rows, as JSON text: {columns, row_count, elapsed_ms, rows}. For a track.
   */
  async sample(sql, count) {
    const began = performance.now();
    let table;
    try {
      table = await this.conn.query(sql.trim().replace(/;\s*$/, ''));
    } catch (e) {
      throw new Error(once(String(e?.message ?? e)));
    }
    const columns = table.schema.fields.map((f) => ({ name: f.name, type: String(f.type) }));
    const rows = rowsOf(table, 0, count);
    return JSON.stringify({ columns, row_count: table.numRows, elapsed_ms: performance.now() - began, rows });
  }

  /** Rows `offset` to `offset + count` of the last result, as JSON text: [[value, …], …]. */
  page(offset, count) {
    return JSON.stringify(this.result ? rowsOf(this.result, offset, count) : []);
  }

  /** The last result as CSV text, every row. */
  csv() {
    const t = this.result;
    if (!t) return '';
    const columns = t.schema.fields.map((f, i) => [t.getChildAt(i), f.type]);
    const lines = [t.schema.fields.map((f) => csvCell(f.name)).join(',')];
    for (let r = 0; r < t.numRows; r++) lines.push(columns.map(([c, type]) => csvCell(jsonValue(c.get(r), type))).join(','));
    return `${lines.join('\r\n')}\r\n`;
  }
}

/** Rows `offset` to `offset + count` of Arrow table `t`, each an array of JSON values. */
function rowsOf(t, offset, count) {
  const end = Math.min(t.numRows, offset + count);
  const columns = t.schema.fields.map((f, i) => [t.getChildAt(i), f.type]);
  const rows = [];
  for (let r = offset; r < end; r++) rows.push(columns.map(([c, type]) => jsonValue(c.get(r), type)));
  return rows;
}

/** DuckDB's type for an Arrow type, for a table made from a schema alone. */
function sqlType(type) {
  const s = String(type);
  if (/^Int64|^Uint64/.test(s)) return 'BIGINT';
  if (/^Int/.test(s)) return 'INTEGER';
  if (/^Float/.test(s)) return 'DOUBLE';
  if (/^Bool/.test(s)) return 'BOOLEAN';
  if (/^Timestamp/.test(s)) return 'TIMESTAMPTZ';
  return 'VARCHAR';
}

/** Starts DuckDB in its worker and opens a connection. `progress(loaded, total)` hears the WebAssembly's download. */
export async function open(progress) {
  const worker = new Worker(here('./duckdb-browser-eh.worker.js'));
  const db = new duckdb.AsyncDuckDB(new duckdb.VoidLogger(), worker);
  await db.instantiate(here('./duckdb-eh.wasm'), null, (p) => {
    if (typeof progress === 'function') progress(p.bytesLoaded, p.bytesTotal);
  });
  await db.open({ query: { castBigIntToDouble: false, castDecimalToDouble: true } });
  const conn = await db.connect();
  await conn.query('SET autoinstall_known_extensions = false');
  await conn.query('SET autoload_known_extensions = false');
  return new Engine(db, conn);
}
