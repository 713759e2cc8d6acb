import { Logger } from '@nestjs/common';
import { createApp } from './app.js';
import { ConfigError, loadConfig } from './config/config.js';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\nFix these environment variables and start again.\n`);
      process.exit(1);
    }
    throw error;
  }
  const app = await createApp(config);
  await app.listen(config.port, config.host);
  const where = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  new Logger('Main').log(
    `API ready on ${where}/api (${config.database.kind === 'sqlite' ? `SQLite at ${config.database.file}` : 'MySQL'}); docs at ${where}/api/docs`,
  );
}

main().catch((error) => {
  new Logger('Main').error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
