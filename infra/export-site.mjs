#!/usr/bin/env node
// `npm run export-site -- --out DIR|FILE.zip [--base-url URL]`: a copy of the live site
// ($VAR_DIR/site/live, VAR_DIR default ./var) that works from any static host or from a folder
// opened with file://. Reads files only: the product may be running or stopped.
// What the copy is: see admin-api/src/site-export/site-export.ts.
import path from 'node:path';
import { parseArgs } from 'node:util';

import { exportSite, normaliseBaseUrl } from '@portfolio/admin-api/site-export';
import { EnvReader } from '@portfolio/contract/env';

const USAGE = 'Usage: npm run export-site -- --out DIR|FILE.zip [--base-url https://mirror.example/]';

function fail(message) {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

let args;
try {
  args = parseArgs({
    options: { out: { type: 'string' }, 'base-url': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: false,
  }).values;
} catch (error) {
  fail(`${error.message}\n${USAGE}`);
}
if (args.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (!args.out) fail(`--out is required.\n${USAGE}`);
let baseUrl = null;
if (args['base-url'] !== undefined) {
  try {
    baseUrl = normaliseBaseUrl(args['base-url']);
  } catch (error) {
    fail(error.message);
  }
}

const reader = new EnvReader(process.env, { cwd: process.cwd() });
const varDir = path.resolve(process.cwd(), reader.str('VAR_DIR') ?? './var');
if (reader.problems.length) fail(reader.problems.join('\n'));

const started = Date.now();
try {
  const result = await exportSite({
    siteDir: path.join(varDir, 'site', 'live'),
    uploadsDir: path.join(varDir, 'uploads'),
    baseUrl,
    out: path.resolve(process.cwd(), args.out),
  });
  const mb = (result.bytes / 1024 / 1024).toFixed(1);
  process.stdout.write(
    `Site exported to ${result.out} (${result.kind}): ${result.pages} pages, ${result.files} files (${result.uploads} uploads), ${mb} MB, in ${((Date.now() - started) / 1000).toFixed(1)} s.\n` +
      (baseUrl
        ? `Addresses are absolute under ${baseUrl}.\n`
        : 'Addresses are relative: open index.html, or put the folder on any static host.\n'),
  );
  if (result.missingUploads.length) {
    process.stdout.write(
      `Pages name ${result.missingUploads.length} upload(s) that are not in ${path.join(varDir, 'uploads')} (their links stay broken, as on the live site):\n${result.missingUploads.map((u) => `  ${u}`).join('\n')}\n`,
    );
  }
} catch (error) {
  fail(error?.message ?? String(error));
}
