// CI's dependency audit: `npm audit --omit=dev` must find no high or critical advisory in what
// the product runs, unless .ci/audit-exceptions.json lists it with a date and a reason
// ({ "<advisory id or package>": { "until": "2027-01-31", "reason": "..." } }). When the audit
// service cannot be reached (no network, or a registry without one: an offline mirror answers
// 405), nothing was checked: it passes, and says so in its last line, `npm audit: NOT CHECKED
// (<why>)`, which `npm test` repeats at the end (VERDICT_FILE), so silence never reads as a pass.
// Any other failure to run fails.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
/** This audit's last line, for `npm test` (scripts/test.mjs) to repeat in its summary. */
const VERDICT_FILE = path.join(root, 'node_modules/.cache/npm-audit-verdict.txt');
// An audit that dies half-way leaves no verdict, rather than the one before it.
fs.rmSync(VERDICT_FILE, { force: true });
const exceptionsFile = path.join(root, '.ci/audit-exceptions.json');
const exceptions = fs.existsSync(exceptionsFile)
  ? JSON.parse(fs.readFileSync(exceptionsFile, 'utf8'))
  : {};

// AUDIT_REPORT=<file> checks a saved `npm audit --json` report instead (to try the rules).
const run = process.env.AUDIT_REPORT
  ? { stdout: fs.readFileSync(process.env.AUDIT_REPORT, 'utf8'), stderr: '' }
  : spawnSync('npm', ['audit', '--omit=dev', '--json'], { cwd: root, encoding: 'utf8' });
/** Prints the verdict as the last line, keeps it for `npm test`, and exits. */
function verdict(line, code) {
  console.log(line);
  fs.mkdirSync(path.dirname(VERDICT_FILE), { recursive: true });
  fs.writeFileSync(VERDICT_FILE, `${line}\n`);
  process.exit(code);
}

/** Errors that mean the audit service was not reached, not that something is wrong here. */
const UNREACHABLE =
  /\b(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|ENOTCACHED|ERR_SOCKET_TIMEOUT)\b|socket hang up/;

let report;
try {
  report = JSON.parse(run.stdout);
} catch {
  console.error(run.stderr);
  verdict(
    `npm audit: FAILED (it printed no report${run.error ? `: ${run.error.message}` : ''})`,
    1,
  );
}
if (!report.vulnerabilities) {
  const why = String(report.message ?? report.error?.summary ?? run.stderr)
    .trim()
    .split('\n')[0];
  const status = Number(report.statusCode);
  if ([404, 405, 501].includes(status)) {
    verdict(`npm audit: NOT CHECKED (the registry has no audit service: ${why})`, 0);
  }
  if (status >= 500) verdict(`npm audit: NOT CHECKED (the audit service is down: ${why})`, 0);
  if (UNREACHABLE.test(why) || UNREACHABLE.test(String(report.error?.code))) {
    verdict(`npm audit: NOT CHECKED (the registry cannot be reached: ${why})`, 0);
  }
  console.error(run.stderr);
  verdict(`npm audit: FAILED (it could not run: ${why || 'no reason given'})`, 1);
}

const today = new Date().toISOString().slice(0, 10);
const serious = Object.values(report.vulnerabilities).filter((v) =>
  ['high', 'critical'].includes(v.severity),
);
const unexcused = serious.filter((v) => {
  const ids = [
    v.name,
    ...v.via.filter((via) => typeof via === 'object').map((via) => String(via.source)),
  ];
  return !ids.some((id) => exceptions[id] && exceptions[id].until >= today);
});
for (const v of serious) {
  console.log(
    `audit: ${v.severity} ${v.name} (${v.range})${unexcused.includes(v) ? '' : ' - excepted'}`,
  );
}
const counted = `${serious.length} high or critical, ${unexcused.length} without a current exception`;
verdict(
  unexcused.length > 0 ? `npm audit: FAILED (${counted})` : `npm audit: passed (${counted})`,
  unexcused.length > 0 ? 1 : 0,
);
