import { Logger } from '@nestjs/common';

import { createApp } from './app.js';
import { loadConfigOrExit } from './config/config.js';
import { DatabaseUnreachableError, waitForDatabase } from './database/wait-for-database.js';
import { drain } from './operations/drain.js';

/** Stops with one line that says what to fix (no stack trace for an operator's mistake). */
function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

async function main() {
  const config = loadConfigOrExit({ then: 'start again' });
  try {
    await waitForDatabase(config, { timeoutMs: config.databaseWaitSeconds * 1000 });
  } catch (error) {
    if (error instanceof DatabaseUnreachableError) fail(error.message);
    throw error;
  }
  const app = await createApp(config);
  try {
    // Listened to here rather than by app.listen(), which logs a listen error as a stack trace.
    await app.init();
    const server = app.getHttpServer() as import('node:http').Server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const address = `${config.host}:${config.port}`;
    if (code === 'EADDRINUSE')
      fail(
        `Port ${config.port} is already in use on ${config.host} (is the product already running?): stop the other program or set PORT to a free port`,
      );
    if (code === 'EACCES') fail(`Not allowed to listen on ${address}: use a port above 1023 (PORT) or run with the needed rights`);
    if (code === 'EADDRNOTAVAIL') fail(`${config.host} is not an address of this machine: check HOST`);
    throw error;
  }
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      // A second signal: stop now.
      process.exit(1);
    }
    stopping = true;
    const logger = new Logger('Main');
    logger.log(`${signal}: no new requests; finishing running ones (up to ${config.shutdownTimeoutMs} ms)`);
    drain(app, config.shutdownTimeoutMs).then(
      ({ cut }) => {
        logger.log(cut ? 'Stopped (requests still running after the timeout were cut off)' : 'Stopped cleanly');
        process.exit(0);
      },
      (error) => {
        logger.error(`Stopping failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // The port actually bound: PORT=0 picks a free one, and whoever started the process reads it here.
  const { port } = (app.getHttpServer() as import('node:http').Server).address() as import('node:net').AddressInfo;
  const where = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  new Logger('Main').log(
    `API ready on ${where}/api (${config.database.kind === 'sqlite' ? `SQLite at ${config.database.file}` : 'MySQL'}); docs at ${where}/api/docs`,
  );
}

main().catch((error) => {
  new Logger('Main').error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
