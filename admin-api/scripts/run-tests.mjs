// Runs the API suite over real HTTP on SQLite, then again on MySQL/MariaDB when TEST_MYSQL_URL is
// set (as .ci/run does). Ends with one line of counts. In CI a skipped test fails the run.
import { globSync } from 'node:fs';
import path from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const filter = process.argv.slice(2);
const files = globSync('dist/**/*.spec.js', { cwd: root })
  .filter((f) => !filter.length || filter.some((part) => f.includes(part)))
  .map((f) => path.join(root, f))
  .sort();

const passes = [{ name: 'SQLite', db: 'sqlite', concurrency: true }];
if (process.env.TEST_MYSQL_URL) passes.push({ name: 'MySQL', db: 'mysql', concurrency: 1 });
else if (process.env.CI) {
  console.error('CI is set but TEST_MYSQL_URL is not: the MySQL pass cannot be skipped in CI.');
  process.exit(1);
}

const totals = [];
for (const pass of passes) {
  process.env.TEST_DB = pass.db;
  console.log(`\n=== API tests on ${pass.name} (${files.length} files) ===\n`);
  const counts = { pass: 0, fail: 0, skip: 0 };
  const stream = run({ files, concurrency: pass.concurrency, timeout: 120_000 });
  stream.on('test:pass', (e) => {
    if (e.details?.type === 'suite') return;
    if (e.skip || e.todo) counts.skip++;
    else counts.pass++;
  });
  stream.on('test:fail', (e) => {
    if (e.details?.type === 'suite' && !e.details?.error?.failureType?.includes('hook')) return;
    counts.fail++;
  });
  await new Promise((resolve, reject) => {
    stream
      .compose(spec)
      .on('data', (chunk) => process.stdout.write(chunk))
      .on('end', resolve)
      .on('error', reject);
  });
  totals.push({ ...pass, ...counts });
}

const failed = totals.reduce((n, t) => n + t.fail, 0) + (process.env.CI ? totals.reduce((n, t) => n + t.skip, 0) : 0);
const summary = totals.map((t) => `${t.name}: ${t.pass} passed, ${t.fail} failed, ${t.skip} skipped`).join('; ');
console.log(`\nAPI tests: ${summary}${failed ? ' -- FAILED' : ''}`);
process.exit(failed ? 1 : 0);
