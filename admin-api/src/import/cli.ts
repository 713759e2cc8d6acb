import 'reflect-metadata';

import path from 'node:path';

import { NestFactory } from '@nestjs/core';
import type { ImportJob, ImportReport } from '@portfolio/contract/imports';

import { AppModule } from '../app.module.js';
import { AdminUser } from '../auth/admin-user.entity.js';
import { loadConfigOrExit } from '../config/config.js';
import { Db } from '../database/db.service.js';
import { ImportsService } from './imports.service.js';

const USAGE = `Usage:
  npm run import -- FILE [--dry-run] [--news-category NAME]... [--news-tag NAME]...
    FILE: a WordPress (WXR) file, a Ghost export (JSON or zip), a Substack export (zip), or Markdown files (a zip or a folder).
    Every post becomes an essay, or news when one of its categories or tags is named with --news-category / --news-tag.
    --dry-run: only say what would be done; nothing is saved.`;

const say = (line: string) => process.stdout.write(`${line}\n`);
const fail = (message: string): never => {
  process.stderr.write(`${message}\n`);
  process.exit(1);
};

function parseArgs(argv: string[]) {
  const options = { file: null as string | null, dryRun: false, newsCategories: [] as string[], newsTags: [] as string[] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--dry-run') options.dryRun = true;
    else if (arg === '--news-category' || arg === '--news-tag') {
      const value = argv[++i];
      if (!value) fail(USAGE);
      (arg === '--news-category' ? options.newsCategories : options.newsTags).push(value!);
    } else if (arg === '--help' || arg === '-h' || arg.startsWith('--') || options.file) fail(USAGE);
    else options.file = arg;
  }
  if (!options.file) fail(USAGE);
  return options as typeof options & { file: string };
}

export function describeReport(report: ImportReport, fileName: string): string[] {
  const { counts } = report;
  const lines = [
    `${fileName}: a ${report.format} export of ${report.items.length} item(s).`,
    `  ${counts.create} to create, ${counts.update} to update, ${counts.unchanged} unchanged, ${counts.skip} skipped`,
  ];
  const planned = report.items.filter((i) => i.action === 'create' || i.action === 'update');
  if (planned.length) {
    lines.push('  To import:');
    for (const item of planned)
      lines.push(
        `    ${item.action} ${item.kind === 'news' ? 'news' : 'essay'}: ${item.title}${item.images ? ` (${item.images} image(s))` : ''}`,
      );
  }
  const skipped = report.items.filter((i) => i.action === 'skip');
  if (skipped.length) {
    lines.push('  Skipped:');
    for (const item of skipped) lines.push(`    ${item.title}: ${item.reason}`);
  }
  if (report.warnings.length) {
    lines.push('  Warnings:');
    for (const warning of report.warnings) lines.push(`    ${warning.title}: ${warning.message}`);
  }
  const names = (list: { name: string; count: number }[]) => list.map((c) => `${c.name} (${c.count})`).join(', ') || 'none';
  lines.push(`  Categories: ${names(report.categories)}`, `  Tags: ${names(report.tags)}`);
  return lines;
}

const progressLine = (job: ImportJob) =>
  `  applying: items ${job.progress.items.done}/${job.progress.items.total}, images ${job.progress.images.done}/${job.progress.images.total}`;

async function main(argv: string[]) {
  const options = parseArgs(argv);
  // npm runs scripts from the repository root; a file name is meant from where the command was typed.
  const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), options.file);
  // This command is not a server: it makes no scheduled backup of its own.
  process.env.BACKUP_EVERY = 'off';
  const config = loadConfigOrExit();
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config), { logger: ['error'], abortOnError: false });
  try {
    const db = app.get(Db);
    const user = await db.manager.findOne(AdminUser, { where: { isActive: true }, order: { isSuperadmin: 'DESC', id: 'ASC' } });
    if (!user) fail('There is no admin account yet: start the API once (npm start), then import.');
    const imports = app.get(ImportsService);
    const auth = { user: user!, sessionId: 'command-line' };
    let job = await imports.create({ path: file, originalName: path.basename(file), from: 'local' }, auth);
    if (options.newsCategories.length || options.newsTags.length) {
      job = await imports.setMapping(job.id, { newsCategories: options.newsCategories, newsTags: options.newsTags });
    }
    for (const line of describeReport(job.report, job.fileName)) say(line);
    if (options.dryRun) {
      await imports.remove(job.id);
      say('Dry run: nothing was saved.');
      return;
    }
    job = await imports.apply(job.id, auth);
    let last = '';
    const timer = setInterval(() => {
      void imports.get(job.id).then((now) => {
        const line = progressLine(now);
        if (line !== last) say((last = line));
      });
    }, 1000);
    await imports.finished(job.id);
    clearInterval(timer);
    job = await imports.get(job.id);
    say(progressLine(job));
    for (const warning of job.applyWarnings) say(`  warning: ${warning.title}: ${warning.message}`);
    if (job.state === 'failed') fail(`The import failed: ${job.error}`);
    say(
      `Done: ${job.progress.items.done} item(s) saved, ${job.progress.images.done} image(s) handled; the site is published once, as a whole.`,
    );
  } finally {
    await app.close();
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: Error & { response?: { message?: string } }) => fail(error.response?.message ?? `Failed: ${error.message}`),
);
