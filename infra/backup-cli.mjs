// `npm run backup` and `npm run restore ARCHIVE`: the API's backup command (admin-api/src/backup/cli.ts),
// built first when this checkout has not been built yet (npm start builds it too).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const cli = path.join(root, 'admin-api', 'dist', 'src', 'backup', 'cli.js');
if (!existsSync(cli)) {
  process.stdout.write('Building the API first (npm run build) …\n');
  for (const ws of ['@portfolio/contract', '@portfolio/admin-api']) {
    const built = spawnSync('npm', ['run', 'build', '-w', ws], { cwd: root, stdio: 'inherit' });
    if (built.status !== 0) process.exit(built.status ?? 1);
  }
}
// npm runs scripts from the repository root; file names are meant from where the command was typed.
const from = process.env.INIT_CWD ?? process.cwd();
const args = process.argv
  .slice(2)
  .map((arg, i, all) => (i > 0 && (!arg.startsWith('-') || all[i - 1] === '--out') && arg !== '--' ? path.resolve(from, arg) : arg));
const run = spawnSync(process.execPath, [cli, ...args], { stdio: 'inherit' });
process.exit(run.status ?? 1);
