import 'reflect-metadata';

import { INestApplication, Logger, LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';

import { AppModule } from './app.module.js';
import { rejectDeepBodies } from './common/body-depth.js';
import { recordRequests } from './common/metrics.js';
import type { AppConfig } from './config/config.js';
import { setupOpenApi } from './openapi.js';
import { JsonLogger } from './operations/json-logger.js';
import { requestLogger } from './operations/request-logger.js';
import { serveStaticFiles } from './static-files.js';

/** Builds the whole API; used by main.ts and by the tests, which run it over real HTTP. */
export async function createApp(config: AppConfig, logger?: LoggerService | false): Promise<INestApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    logger: logger ?? (config.logFormat === 'json' ? new JsonLogger() : new Logger()),
    abortOnError: false,
  });
  app.set('trust proxy', config.trustProxy);
  app.disable('x-powered-by');
  app.useBodyParser('json', { limit: '1mb' });
  app.use(rejectDeepBodies);
  app.use(recordRequests);
  if (config.logRequests) app.use(requestLogger(config.logFormat));
  serveStaticFiles(app, config);
  app.use((_req: express.Request, res: express.Response, next: express.NextFunction) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });
  app.setGlobalPrefix('api');
  // No enableShutdownHooks(): main.ts handles SIGTERM/SIGINT itself, draining requests before app.close().
  setupOpenApi(app);
  return app;
}
