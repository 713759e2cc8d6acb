// `npm run two-factor:off -- USERNAME`: the operator's way back in for an admin who lost both the
// authenticator and the recovery codes (the main administrator, or the only admin, has nobody
// else to turn it off). Needs access to the server's configuration and database, like a restore.
import { loadConfigOrExit } from '../config/config.js';
import { openDataSource } from '../database/data-source.js';
import { DatabaseUnreachableError, waitForDatabase } from '../database/wait-for-database.js';
import { AdminTotp } from './admin-totp.entity.js';
import { AdminUser } from './admin-user.entity.js';
import { removeTwoFactor } from './two-factor.service.js';

const say = (line: string) => process.stdout.write(`${line}\n`);
const fail = (message: string): never => {
  process.stderr.write(`${message}\n`);
  process.exit(1);
};

async function main(argv: string[]) {
  const username = argv.filter((a) => a !== '--')[0]?.trim();
  if (!username) fail("Usage: npm run two-factor:off -- USERNAME   turns off that admin's two-factor sign-in (the password stays)");
  const config = loadConfigOrExit();
  await waitForDatabase(config, { timeoutMs: Math.min(config.databaseWaitSeconds, 15) * 1000, say });
  const dataSource = await openDataSource(config);
  try {
    const user = await dataSource.manager.findOne(AdminUser, { where: { username } });
    if (!user) fail(`There is no admin named "${username}".`);
    if (!(await dataSource.manager.count(AdminTotp, { where: { userId: user!.id } })))
      fail(`"${username}" does not use two-factor sign-in; nothing to turn off.`);
    await dataSource.transaction((m) => removeTwoFactor(m, user!.id));
    say(`Two-factor sign-in of "${username}" is off: they sign in with their password alone and can set it up again in the overlay.`);
  } finally {
    await dataSource.destroy();
  }
}

main(process.argv.slice(2)).catch((error) => {
  if (error instanceof DatabaseUnreachableError) fail(error.message);
  fail(`Could not turn two-factor sign-in off: ${error?.message ?? error}`);
});
