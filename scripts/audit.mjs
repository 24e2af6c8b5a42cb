// CI's dependency audit: `npm audit --omit=dev` must find no high or critical advisory in what
// the product runs, unless .ci/audit-exceptions.json lists it with a date and a reason
// ({ "<advisory id or package>": { "until": "2027-01-31", "reason": "..." } }). When the
// registry has no audit service (an offline mirror answers 405), it says so and passes: there is
// nothing to check against.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const exceptionsFile = path.join(root, '.ci/audit-exceptions.json');
const exceptions = fs.existsSync(exceptionsFile)
  ? JSON.parse(fs.readFileSync(exceptionsFile, 'utf8'))
  : {};

// AUDIT_REPORT=<file> checks a saved `npm audit --json` report instead (to try the rules).
const run = process.env.AUDIT_REPORT
  ? { stdout: fs.readFileSync(process.env.AUDIT_REPORT, 'utf8'), stderr: '' }
  : spawnSync('npm', ['audit', '--omit=dev', '--json'], { cwd: root, encoding: 'utf8' });
let report;
try {
  report = JSON.parse(run.stdout);
} catch {
  console.error(`npm audit printed no report:\n${run.stderr}`);
  process.exit(1);
}
if (!report.vulnerabilities) {
  console.log(
    `audit: the registry has no audit service (${report.statusCode ?? ''} ${report.message ?? run.stderr.trim()}); nothing checked.`,
  );
  process.exit(0);
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
console.log(
  `audit: ${serious.length} high or critical, ${unexcused.length} without a current exception`,
);
process.exit(unexcused.length > 0 ? 1 : 0);
