#!/usr/bin/env node
// The builder process: `node infra/builder/main.mjs` (started by infra/start.mjs on the embedded
// default, its own service in docker-compose.yml). Configuration: see config.mjs and the README.
import { SiteBuilder } from './builder.mjs';
import { BuilderConfigError, loadBuilderConfig } from './config.mjs';
import { makeLog } from './log.mjs';
import { createBuilderServer } from './server.mjs';

let config;
try {
  config = loadBuilderConfig();
} catch (error) {
  if (error instanceof BuilderConfigError) {
    process.stderr.write(`${error.message}\nFix these environment variables and start again.\n`);
    process.exit(1);
  }
  throw error;
}

const log = makeLog(config.logFormat);
const builder = await new SiteBuilder(config, { log }).init();
const server = createBuilderServer(builder, { secret: config.secret, log });
await new Promise((resolve, reject) => {
  server.once('error', reject);
  server.listen(config.port, config.host, resolve);
});
const { port } = server.address();
log(`listening on http://${config.host}:${port} (builds in ${config.buildsDir}; live site ${config.liveLink})`);
// infra/start.mjs learns the port (BUILDER_PORT=0 picks a free one) over the IPC channel.
process.send?.({ type: 'listening', port });

if (config.buildOnStart === 'always' || (config.buildOnStart === 'missing' && !builder.live) || builder.interrupted) {
  if (builder.interrupted) log('the last run stopped during a publish: publishing everything again');
  builder.request({ reason: builder.live ? 'start' : 'first-start' });
} else if (config.buildOnStart !== 'never') {
  // Whatever the last run accepted and did not make live (a power cut leaves no mark): the API knows.
  builder.catchUp().catch((error) => log(`catch-up check failed: ${error?.message ?? error}`));
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    server.close();
    server.closeAllConnections();
    builder.close().finally(() => process.exit(0));
  });
}
// Stop with the parent (start.mjs) even if it dies without sending a signal.
process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));
