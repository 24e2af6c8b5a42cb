// `npm run deploy:check`: the release behind the shipped nginx site, on this machine, checked
// through HTTPS (decision 043; docs/testing.md says when to run it). Run by hand, not by `npm test`.
//
// Needs Debian's nginx (apt-get install -y nginx), openssl, PostgreSQL at 127.0.0.1:5432 (user
// postgres, trust authentication) and Redis at 127.0.0.1:6379; installs nothing itself. It
// makes the release (or takes one: --tarball FILE; --skip-build passes on to the release
// script), unpacks it into an empty folder, makes a database of its own and uses an empty Redis
// database, starts two `node server.js` processes and nginx with deploy/nginx/*.conf (its ports,
// names and certificate paths replaced), then proves each point below and prints it. Everything
// it started or made goes at the end, failure or not; any failed check makes it exit non-zero.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import Redis from 'ioredis';
import pg from 'pg';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const args = process.argv.slice(2);
const option = (name) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};
const POSTGRES = 'postgres://postgres@127.0.0.1:5432';
const REDIS = 'redis://127.0.0.1:6379';
const MAX_UPLOAD_BYTES = 10 * 1024 * 1024; // modules/uploads/image-processing.ts
const SIGN_UP_LIMIT = 4;
const METRICS_TOKEN = crypto.randomBytes(24).toString('hex');
const started = performance.now();

// ---------------------------------------------------------------------------------------------
// What this machine must have.

function which(command) {
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}
const nginxBinary = which('nginx') ?? (fs.existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : '');
if (!nginxBinary) {
  console.error('deploy:check needs nginx: apt-get install -y nginx (Debian), then run it again.');
  process.exit(2);
}
if (!which('openssl')) {
  console.error('deploy:check needs openssl: apt-get install -y openssl');
  process.exit(2);
}

// ---------------------------------------------------------------------------------------------
// Clean-up: whatever was started or made is undone in reverse order, however the run ends.

const undo = [];
/** Printed (their ends) when a check failed, before the folder holding them goes. */
const logFiles = [];
let cleaning;
function cleanUp() {
  cleaning ??= (async () => {
    for (const step of undo.reverse()) {
      try {
        await step();
      } catch (error) {
        console.error(`clean-up: ${error.message}`);
      }
    }
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.error(`\n${signal}: cleaning up`);
    void cleanUp().then(() => process.exit(130));
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts a long-running process whose output goes to `logFile`; stopped at clean-up. */
function startProcess(label, command, commandArgs, options) {
  const log = fs.openSync(options.logFile, 'a');
  const child = spawn(command, commandArgs, { ...options, stdio: ['ignore', log, log] });
  logFiles.push(options.logFile);
  fs.closeSync(log);
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  undo.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  });
  return { child, exited, label, logFile: options.logFile };
}

function tail(file, lines = 30) {
  if (!fs.existsSync(file)) return '';
  return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

// ---------------------------------------------------------------------------------------------
// An HTTPS client that trusts the run's own certificate, keeps cookies and reads which process
// answered (the X-Upstream header the check's copy of the site adds).

let ca;
let origin;
let nginxPort;

function httpsRequest(pathname, { method = 'GET', headers = {}, body, stream = false } = {}) {
  return new Promise((resolve, reject) => {
    const request = https.request(
      {
        host: '127.0.0.1',
        port: nginxPort,
        servername: 'localhost',
        ca,
        method,
        path: pathname,
        headers: { host: `localhost:${nginxPort}`, ...headers },
        agent: false,
      },
      (response) => {
        if (stream)
          return resolve({
            status: response.statusCode,
            headers: response.headers,
            response,
            request,
          });
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode,
            headers: response.headers,
            body: Buffer.concat(chunks),
            text: () => Buffer.concat(chunks).toString('utf8'),
            json: () => JSON.parse(Buffer.concat(chunks).toString('utf8')),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** Every process that answered through nginx, by its address. */
const upstreamsSeen = new Set();

class Browser {
  cookies = new Map();

  async request(pathname, { method = 'GET', headers = {}, json, body, stream } = {}) {
    const sent = { origin, ...headers };
    if (this.cookies.size > 0) {
      sent.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    }
    let payload = body;
    if (json !== undefined) {
      sent['content-type'] = 'application/json';
      payload = JSON.stringify(json);
    }
    const response = await httpsRequest(pathname, { method, headers: sent, body: payload, stream });
    if (response.headers['x-upstream']) upstreamsSeen.add(response.headers['x-upstream']);
    for (const line of response.headers['set-cookie'] ?? []) {
      const [pair, ...attributes] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      if (value === '' || attributes.some((a) => /max-age=0\b/i.test(a.trim()))) {
        this.cookies.delete(name);
      } else this.cookies.set(name, value);
    }
    return response;
  }

  post(pathname, json = {}, headers = {}) {
    return this.request(pathname, { method: 'POST', json, headers });
  }
}

/** Opens the live conversation stream and collects its events (as EventSource would). */
async function openStream(browser) {
  const opened = await browser.request('/api/conversations/stream', { stream: true });
  if (opened.status !== 200) throw new Error(`the stream answered ${opened.status}`);
  const events = [];
  const waiters = new Set();
  let buffer = '';
  opened.response.setEncoding('utf8');
  opened.response.on('data', (chunk) => {
    buffer += chunk;
    let cut;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let event = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = text;
        else if (field === 'data') data.push(text);
      }
      if (data.length > 0) events.push({ event, data: JSON.parse(data.join('\n')) });
      for (const wake of waiters) wake();
    }
  });
  opened.response.on('error', () => {});
  return {
    upstream: opened.headers['x-upstream'],
    headers: opened.headers,
    async next(match, ms = 5000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const found = events.find(match);
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(`no such event within ${ms} ms; got ${JSON.stringify(events)}`);
        await new Promise((resolve) => {
          const timer = setTimeout(done, left);
          function done() {
            clearTimeout(timer);
            waiters.delete(done);
            resolve();
          }
          waiters.add(done);
        });
      }
    },
    close: () => opened.request.destroy(),
  };
}

/** A GET over HTTP/2 (what browsers use with this site). */
function http2Get(pathname, headers = {}) {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`https://127.0.0.1:${nginxPort}`, {
      ca,
      servername: 'localhost',
    });
    session.on('error', reject);
    const request = session.request({
      ':path': pathname,
      ':authority': `localhost:${nginxPort}`,
      ...headers,
    });
    const chunks = [];
    let answer;
    request.on('response', (h) => (answer = h));
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      session.close();
      resolve({ headers: answer, status: answer[':status'], body: Buffer.concat(chunks) });
    });
    request.on('error', reject);
    request.end();
  });
}

/** A plain HTTP request straight to one process, past nginx. */
function direct(port, pathname, headers = {}) {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: pathname, headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode, text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    request.on('error', reject);
  });
}

/** A PNG of exactly `size` bytes (stored, uncompressed pixels, then a text chunk to fill up). */
function pngOfSize(size) {
  const chunk = (type, data) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(Buffer.concat([Buffer.from(type, 'latin1'), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const width = 1800;
  const height = 1880;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per sample
  header[9] = 2; // RGB
  const rows = [];
  for (let y = 0; y < height; y += 1) rows.push(Buffer.from([0]), crypto.randomBytes(width * 3));
  const parts = [
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows), { level: 0 })),
  ];
  const end = chunk('IEND', Buffer.alloc(0));
  const sofar = parts.reduce((sum, part) => sum + part.length, 0) + end.length;
  const fill = size - sofar - 12 - 'Comment\0'.length;
  if (fill < 0) throw new Error(`the test picture is already ${sofar} bytes, more than ${size}`);
  parts.push(chunk('tEXt', Buffer.concat([Buffer.from('Comment\0'), Buffer.alloc(fill, 0x61)])));
  const png = Buffer.concat([...parts, end]);
  if (png.length !== size) throw new Error(`made ${png.length} bytes, not ${size}`);
  return png;
}

function multipart(field, filename, type, bytes) {
  const boundary = `----carmarket${crypto.randomBytes(8).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

// ---------------------------------------------------------------------------------------------
// The checks, each printed as it passes or fails.

let failures = 0;
async function check(name, body) {
  const at = performance.now();
  try {
    const detail = await body();
    const ms = Math.round(performance.now() - at);
    console.log(`  ok    ${name}${detail ? `: ${detail}` : ''} (${ms} ms)`);
  } catch (error) {
    failures += 1;
    console.log(`  FAIL  ${name}: ${error.message}`);
  }
}
function expect(condition, message) {
  if (!condition) throw new Error(message);
}

async function waitReady(server, port) {
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (server.child.exitCode !== null) {
      throw new Error(
        `${server.label} exited (${server.child.exitCode}):\n${tail(server.logFile)}`,
      );
    }
    const ready = await direct(port, '/api/ready').catch(() => undefined);
    if (ready?.status === 200) return;
    if (Date.now() > deadline)
      throw new Error(`${server.label} not ready in 180 s:\n${tail(server.logFile)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Replaces `from` in the shipped site, which must hold it `times` times. */
function replaceIn(text, from, to, times = 1) {
  const found = text.split(from).length - 1;
  if (found !== times) {
    throw new Error(
      `deploy/nginx/carmarket.conf holds "${from}" ${found} times, not ${times}: update deploy-check.mjs to the site`,
    );
  }
  return text.split(from).join(to);
}

async function main() {
  // 1. The release, unpacked into an empty folder.
  let tarball = option('--tarball');
  if (!tarball) {
    const release = spawnSync(
      process.execPath,
      [
        path.join(root, 'scripts/release.mjs'),
        ...(args.includes('--skip-build') ? ['--skip-build'] : []),
      ],
      { stdio: 'inherit', cwd: root },
    );
    if (release.status !== 0) throw new Error('npm run release failed');
    const version = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version;
    tarball = path.join(root, 'release', `carmarket-${version}.tgz`);
  }
  tarball = path.resolve(tarball);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'carmarket-deploy-check-'));
  undo.push(() => fs.rmSync(work, { recursive: true, force: true }));
  // nginx's workers (an unprivileged user when it is started as root) read and write below it.
  fs.chmodSync(work, 0o755);
  const app = path.join(work, 'app');
  const logs = path.join(work, 'logs');
  fs.mkdirSync(app);
  fs.mkdirSync(logs);
  const untar = spawnSync('tar', ['-xzf', tarball, '-C', app, '--strip-components=1']);
  if (untar.status !== 0) throw new Error(`could not unpack ${tarball}: ${untar.stderr}`);
  console.log(`release ${path.relative(root, tarball)} unpacked in ${app}`);

  // 2. On its own, as a first start on a laptop: the embedded database in ./data, no demo data.
  await check(
    'the release starts alone from an empty folder (embedded database) and serves the home page',
    async () => {
      const empty = path.join(work, 'alone');
      fs.mkdirSync(empty);
      const port = await freePort();
      const alone = startProcess(
        `the process on the embedded database (port ${port})`,
        process.execPath,
        [path.join(app, 'server.js')],
        {
          cwd: empty,
          env: {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            HOST: '127.0.0.1',
            PORT: String(port),
            // The demo's photos take most of a first start; the two processes below seed them.
            SEED_DEMO: 'false',
          },
          logFile: path.join(logs, `alone-${port}.log`),
        },
      );
      const at = performance.now();
      let seconds;
      try {
        await waitReady(alone, port);
        seconds = ((performance.now() - at) / 1000).toFixed(1);
        const home = await direct(port, '/');
        expect(home.status === 200, `the home page: ${home.status}`);
        expect(home.text.includes('<title>CarMarket'), 'not the home page');
        expect(fs.existsSync(path.join(empty, 'data/db')), 'no embedded database in ./data');
      } finally {
        alone.child.kill('SIGTERM');
      }
      const { code } = await alone.exited;
      expect(code === 0, `it exited with ${code} on SIGTERM:\n${tail(alone.logFile)}`);
      return `ready in ${seconds} s, stopped by SIGTERM with 0`;
    },
  );

  // 3. A database and a Redis database of the run's own.
  const database = `carmarket_deploy_check_${process.pid}`;
  const admin = new pg.Client({ connectionString: `${POSTGRES}/postgres` });
  await admin.connect().catch((error) => {
    throw new Error(`PostgreSQL does not answer at ${POSTGRES} (${error.message})`);
  });
  await admin.query(`CREATE DATABASE ${database}`);
  undo.push(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  });
  const probe = new Redis(REDIS, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await probe.connect().catch((error) => {
    throw new Error(`Redis does not answer at ${REDIS} (${error.message})`);
  });
  let redisDb;
  for (let db = 15; db >= 1 && redisDb === undefined; db -= 1) {
    await probe.select(db);
    // Taken with a key of the run's own, so that a second run at once takes another.
    if ((await probe.dbsize()) === 0 && (await probe.set('deploy-check', process.pid, 'NX'))) {
      redisDb = db;
    }
  }
  if (redisDb === undefined) throw new Error('no empty Redis database (1-15) to use');
  undo.push(async () => {
    await probe.select(redisDb);
    await probe.flushdb();
    probe.disconnect();
  });

  // 4. A certificate for localhost, made now.
  const tls = path.join(work, 'tls');
  fs.mkdirSync(tls);
  const certificate = path.join(tls, 'cert.pem');
  const key = path.join(tls, 'key.pem');
  const openssl = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      certificate,
    ],
    { encoding: 'utf8' },
  );
  if (openssl.status !== 0) throw new Error(`openssl: ${openssl.stderr}`);
  fs.chmodSync(key, 0o644);
  ca = fs.readFileSync(certificate);

  // 5. Two processes, as carmarket@PORT would run them, on one database, one Redis, one data folder.
  const [portA, portB, httpPort] = [await freePort(), await freePort(), await freePort()];
  nginxPort = await freePort();
  origin = `https://localhost:${nginxPort}`;
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    DATA_DIR: path.join(work, 'data'),
    DATABASE_URL: `${POSTGRES}/${database}`,
    REDIS_URL: `${REDIS}/${redisDb}`,
    PUBLIC_URL: origin,
    BETTER_AUTH_SECRET: crypto.randomBytes(32).toString('hex'),
    TRUST_PROXY: '1',
    METRICS_TOKEN,
    SEED_DEMO: 'true',
    SEED_DEMO_CARS: 'small',
    SIGN_UP_LIMIT_PER_IP: String(SIGN_UP_LIMIT),
    MALLOC_ARENA_MAX: '2',
    LOG_LEVEL: 'info',
  };
  const servers = [portA, portB].map((port, index) =>
    startProcess(`process ${index + 1} (port ${port})`, process.execPath, ['server.js'], {
      cwd: app,
      env: { ...env, PORT: String(port) },
      logFile: path.join(logs, `server-${port}.log`),
    }),
  );
  await Promise.all(servers.map((server, index) => waitReady(server, [portA, portB][index])));
  console.log(`two processes ready on ports ${portA} and ${portB}`);

  // 6. nginx with the shipped site: its own prefix, pid and logs, in the foreground.
  const conf = path.join(work, 'nginx');
  fs.mkdirSync(conf);
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
    fs.mkdirSync(path.join(conf, temp), { mode: 0o777 });
    fs.chmodSync(path.join(conf, temp), 0o777);
  }
  let upstream = fs.readFileSync(path.join(app, 'deploy/nginx/carmarket-upstream.conf'), 'utf8');
  upstream = replaceIn(upstream, '127.0.0.1:3001', `127.0.0.1:${portA}`);
  upstream = replaceIn(upstream, '127.0.0.1:3002', `127.0.0.1:${portB}`);
  let site = fs.readFileSync(path.join(app, 'deploy/nginx/carmarket.conf'), 'utf8');
  site = replaceIn(site, 'listen 443 ssl http2;', `listen 127.0.0.1:${nginxPort} ssl http2;`);
  site = replaceIn(site, 'listen [::]:443 ssl http2;', '');
  site = replaceIn(site, 'listen 80;', `listen 127.0.0.1:${httpPort};`);
  site = replaceIn(site, 'listen [::]:80;', '');
  site = replaceIn(site, 'server_name carmarket.example.com;', 'server_name localhost;', 2);
  site = replaceIn(
    site,
    '/var/log/nginx/carmarket.access.log',
    path.join(conf, 'carmarket.access.log'),
  );
  site = site.replace(/ssl_certificate \S+; # CERTIFICATE/, `ssl_certificate ${certificate};`);
  site = site.replace(/ssl_certificate_key \S+; # KEY/, `ssl_certificate_key ${key};`);
  expect(
    !site.includes('/etc/ssl/carmarket'),
    'the site names certificates the check did not replace',
  );
  // The one addition: which process answered, so the checks can tell them apart.
  site = replaceIn(
    site,
    '    ssl_protocols',
    '    add_header X-Upstream $upstream_addr always;\n    ssl_protocols',
  );
  fs.writeFileSync(path.join(conf, 'upstream.conf'), upstream);
  fs.writeFileSync(path.join(conf, 'site.conf'), site);
  fs.writeFileSync(
    path.join(conf, 'nginx.conf'),
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${conf}/nginx.pid;`,
      `error_log ${conf}/error.log warn;`,
      'events { worker_connections 512; }',
      'http {',
      `  access_log ${conf}/access.log;`,
      ...['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
        (temp) => `  ${temp === 'body' ? 'client_body' : temp}_temp_path ${conf}/${temp};`,
      ),
      `  include ${conf}/upstream.conf;`,
      `  include ${conf}/site.conf;`,
      '}',
      '',
    ].join('\n'),
  );
  const nginxArgs = [
    '-p',
    conf,
    '-c',
    path.join(conf, 'nginx.conf'),
    '-e',
    path.join(conf, 'error.log'),
  ];
  const test = spawnSync(nginxBinary, ['-t', ...nginxArgs], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(`nginx -t refused the site:\n${test.stderr}`);
  const nginx = startProcess('nginx', nginxBinary, nginxArgs, {
    logFile: path.join(logs, 'nginx.log'),
  });
  logFiles.push(path.join(conf, 'error.log'));
  for (let tries = 0; ; tries += 1) {
    const up = await httpsRequest('/api/health').catch(() => undefined);
    if (up) break;
    if (nginx.child.exitCode !== null || tries > 100) {
      throw new Error(`nginx did not start:\n${tail(path.join(conf, 'error.log'))}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  console.log(`nginx on https://localhost:${nginxPort} (HTTP on ${httpPort})\n`);

  // 7. The checks through nginx.
  await check('the home page through nginx, over HTTPS with HTTP/2, gzipped by nginx', async () => {
    const home = await http2Get('/', { 'accept-encoding': 'gzip' });
    expect(home.status === 200, `status ${home.status}`);
    // The server sends pages uncompressed: a gzipped one was compressed by the site.
    expect(home.headers['content-encoding'] === 'gzip', 'the page came uncompressed');
    const html = zlib.gunzipSync(home.body).toString();
    expect(/<html/i.test(html) && html.includes('CarMarket'), 'not the home page');
    const direct = await httpsRequest('/');
    expect(!direct.headers['content-encoding'], 'a page came compressed without Accept-Encoding');
    return `${html.length} bytes of HTML, ${home.body.length} gzipped`;
  });

  await check('plain HTTP is sent to HTTPS', async () => {
    const answer = await new Promise((resolve, reject) =>
      http
        .get(
          { host: '127.0.0.1', port: httpPort, path: '/cars?x=1', headers: { host: 'localhost' } },
          resolve,
        )
        .on('error', reject),
    );
    answer.resume();
    expect(answer.statusCode === 301, `status ${answer.statusCode}`);
    expect(
      answer.headers.location === 'https://localhost/cars?x=1',
      `to ${answer.headers.location}`,
    );
  });

  await check('the web app’s files come precompressed (brotli, gzip) through nginx', async () => {
    const home = (await httpsRequest('/')).text();
    // A file the build compressed (compress-dist.mjs leaves files under 512 bytes alone).
    const file = [...home.matchAll(/"(\/assets\/[^"]+\.(?:js|css))"/g)]
      .map((match) => match[1])
      .find((asset) => fs.existsSync(path.join(app, 'apps/web/dist', `${asset}.br`)));
    expect(file, 'the home page names no precompressed file');
    const br = await httpsRequest(file, { headers: { 'accept-encoding': 'br, gzip' } });
    const gz = await httpsRequest(file, { headers: { 'accept-encoding': 'gzip' } });
    const size = fs.statSync(path.join(app, 'apps/web/dist', file)).size;
    expect(
      br.status === 200 && br.headers['content-encoding'] === 'br',
      `br: ${br.status} ${br.headers['content-encoding']}`,
    );
    expect(
      gz.status === 200 && gz.headers['content-encoding'] === 'gzip',
      `gzip: ${gz.status} ${gz.headers['content-encoding']}`,
    );
    expect(
      br.body.equals(fs.readFileSync(path.join(app, 'apps/web/dist', `${file}.br`))),
      'the brotli answer is not the prebuilt file',
    );
    return `${file}: ${size} bytes, ${br.body.length} brotli, ${gz.body.length} gzip`;
  });

  await check(
    'nginx’s request id reaches the process, its log and nginx’s, and comes back',
    async () => {
      const answer = await httpsRequest('/');
      const id = answer.headers['x-request-id'];
      expect(
        /^[0-9a-f]{32}$/.test(id ?? ''),
        `X-Request-Id: ${id} (nginx's $request_id is 32 hex digits)`,
      );
      // nginx and the process each log a request once it is answered: look for a few seconds.
      const inAccessLog = () =>
        fs.readFileSync(path.join(conf, 'carmarket.access.log'), 'utf8').includes(`id=${id} `);
      const loggedBy = () =>
        servers.filter((server) =>
          fs.readFileSync(server.logFile, 'utf8').includes(`"reqId":"${id}"`),
        );
      const deadline = Date.now() + 5000;
      while ((!inAccessLog() || loggedBy().length === 0) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(inAccessLog(), 'not in the site’s access log');
      const logged = loggedBy();
      expect(logged.length === 1, `in ${logged.length} processes' request logs, not 1`);
      const forged = await httpsRequest('/', { headers: { 'x-request-id': 'chosen-by-client' } });
      expect(
        forged.headers['x-request-id'] !== 'chosen-by-client',
        'a client chose its request id',
      );
      return id;
    },
  );

  const buyer = new Browser();
  const account = {
    name: 'Deploy Check',
    email: `deploy-check-${Date.now()}@example.com`,
    password: 'correct horse battery',
  };
  await check('sign-up and sign-in through nginx', async () => {
    const signUp = await buyer.post('/api/auth/sign-up/email', account);
    expect(signUp.status === 200, `sign-up: ${signUp.status} ${signUp.text()}`);
    const role = await buyer.post('/api/user', {
      name: account.name,
      email: account.email,
      role: 'Buyer',
    });
    expect(role.status === 200, `role: ${role.status} ${role.text()}`);
    const fresh = new Browser();
    const signIn = await fresh.post('/api/auth/sign-in/email', {
      email: account.email,
      password: account.password,
    });
    expect(signIn.status === 200, `sign-in: ${signIn.status} ${signIn.text()}`);
    const cookie = [...fresh.cookies.keys()].find((name) => name.endsWith('session_token'));
    expect(cookie?.startsWith('__Secure-'), `session cookie ${cookie} (Secure behind HTTPS)`);
    const session = await fresh.request('/api/auth/get-session');
    expect(session.json()?.user?.email === account.email, `session: ${session.text()}`);
    return `session cookie ${cookie}`;
  });

  const seller = new Browser();
  await check('a live message reaches a stream held by the other process', async () => {
    const signIn = await seller.post('/api/auth/sign-in/email', {
      email: 'seller@demo.local',
      password: 'demo-drive-2026',
    });
    expect(signIn.status === 200, `demo seller's sign-in: ${signIn.status}`);
    const cars = (await buyer.request('/api/listings?limit=1')).json();
    const carId = cars.items?.[0]?._id;
    expect(carId, `no car to ask about: ${JSON.stringify(cars)}`);
    const asked = await buyer.post(`/api/listings/${carId}/messages`, {
      body: 'Is it still for sale?',
    });
    expect(asked.status === 200, `asking: ${asked.status} ${asked.text()}`);
    const conversation = asked.json().conversationId;
    const stream = await openStream(buyer);
    try {
      expect(stream.upstream, 'nginx named no process');
      expect(stream.headers['content-type']?.startsWith('text/event-stream'), 'not a stream');
      await stream.next((e) => e.event === 'ready');
      // Round robin: send until a reply goes through the process that does not hold the stream.
      for (let attempt = 1; attempt <= 4; attempt += 1) {
        const text = `Yes, reply ${attempt}`;
        const reply = await seller.post(`/api/conversations/${conversation}/messages`, {
          body: text,
        });
        expect(reply.status === 200, `reply: ${reply.status} ${reply.text()}`);
        const arrived = await stream.next(
          (e) => e.event === 'message' && e.data?.message?.body === text,
          3000,
        );
        const via = reply.headers['x-upstream'];
        if (via && via !== stream.upstream) {
          expect(arrived.data.message.mine === false, 'the buyer saw their own message');
          return `stream on ${stream.upstream}, message sent through ${via}`;
        }
      }
      throw new Error(`every reply went through ${stream.upstream}, the stream's own process`);
    } finally {
      stream.close();
    }
  });

  await check(
    `a photo of ${MAX_UPLOAD_BYTES} bytes (the limit) uploads through nginx; one byte more is the server's 413`,
    async () => {
      const atLimit = multipart('image', 'car.png', 'image/png', pngOfSize(MAX_UPLOAD_BYTES));
      const upload = await seller.request('/api/uploads', {
        method: 'POST',
        headers: { 'content-type': atLimit.contentType },
        body: atLimit.body,
      });
      expect(upload.status === 200, `upload: ${upload.status} ${upload.text().slice(0, 300)}`);
      const url = upload.json().data?.url;
      const over = multipart('image', 'car.png', 'image/png', pngOfSize(MAX_UPLOAD_BYTES + 1));
      const refused = await seller.request('/api/uploads', {
        method: 'POST',
        headers: { 'content-type': over.contentType },
        body: over.body,
      });
      expect(refused.status === 413, `one byte over: ${refused.status}`);
      expect(
        refused.headers['content-type']?.includes('json'),
        'the 413 came from nginx, not the server',
      );
      if (url) {
        const photo = await seller.request(url.replace(/^https?:\/\/[^/]+/, ''));
        expect(photo.status === 200, `the photo at ${url}: ${photo.status}`);
      }
      return `stored at ${url}`;
    },
  );

  await check(
    'the sign-up limit counts the real client, whatever X-Forwarded-For it forges',
    async () => {
      // This run made one account already, from 127.0.0.1 like these.
      const statuses = [];
      for (let i = 1; i <= SIGN_UP_LIMIT; i += 1) {
        const forged = new Browser();
        const answer = await forged.post(
          '/api/auth/sign-up/email',
          {
            name: `Forger ${i}`,
            email: `forger-${i}-${Date.now()}@example.com`,
            password: 'correct horse battery',
          },
          { 'x-forwarded-for': `203.0.113.${i}` },
        );
        statuses.push(answer.status);
      }
      const expected = [...Array(SIGN_UP_LIMIT - 1).fill(200), 429];
      expect(
        JSON.stringify(statuses) === JSON.stringify(expected),
        `sign-ups answered ${statuses.join(', ')}, not ${expected.join(', ')} (SIGN_UP_LIMIT_PER_IP=${SIGN_UP_LIMIT})`,
      );
      return `${statuses.join(', ')} with SIGN_UP_LIMIT_PER_IP=${SIGN_UP_LIMIT}`;
    },
  );

  await check('both processes answered through nginx', async () => {
    expect(upstreamsSeen.size === 2, `only ${[...upstreamsSeen].join(', ')}`);
    return [...upstreamsSeen].sort().join(', ');
  });

  await check(
    '/metrics is refused through nginx, served by each process with its token',
    async () => {
      for (const pathname of ['/metrics', '/metrics/', '//metrics', '/%6Detrics']) {
        const outside = await httpsRequest(pathname, {
          headers: { authorization: `Bearer ${METRICS_TOKEN}` },
        });
        expect(outside.status === 404, `${pathname} through nginx: ${outside.status}`);
        expect(
          !outside.text().includes('process_resident_memory_bytes'),
          `${pathname} leaked metrics`,
        );
      }
      for (const port of [portA, portB]) {
        const inside = await direct(port, '/metrics', { authorization: `Bearer ${METRICS_TOKEN}` });
        expect(inside.status === 200, `directly on ${port} with the token: ${inside.status}`);
        expect(
          inside.text.includes('http_request_duration_seconds'),
          `no request histogram on ${port}`,
        );
        const anonymous = await direct(port, '/metrics');
        expect(anonymous.status !== 200, `directly on ${port} without the token: 200`);
      }
    },
  );

  for (const server of servers) {
    expect(server.child.exitCode === null, `${server.label} exited:\n${tail(server.logFile)}`);
  }
}

try {
  await main();
} catch (error) {
  failures += 1;
  console.error(`deploy:check could not run: ${error.message}`);
} finally {
  if (failures > 0) {
    for (const file of logFiles)
      console.log(`\n--- the end of ${path.basename(file)}:\n${tail(file, 15)}`);
  }
  await cleanUp();
}
const seconds = ((performance.now() - started) / 1000).toFixed(0);
console.log(
  failures === 0
    ? `\ndeploy:check passed in ${seconds} s`
    : `\ndeploy:check: ${failures} failed in ${seconds} s`,
);
process.exit(failures === 0 ? 0 : 1);
