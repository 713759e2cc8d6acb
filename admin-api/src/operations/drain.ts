import type http from 'node:http';

import type { INestApplication } from '@nestjs/common';

import { OperationsService } from './operations.service.js';

/**
 * A graceful stop (SIGTERM): readiness fails at once, the server stops accepting connections,
 * requests already running finish (up to `timeoutMs`, then their connections are cut), and only
 * then the app closes: the rebuild sender finishes or gives back its lease, the database closes.
 */
export async function drain(app: INestApplication, timeoutMs: number): Promise<{ cut: boolean }> {
  app.get(OperationsService).beginShutdown();
  const server = app.getHttpServer() as http.Server;
  let cut = false;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Keep-alive connections that go idle after their last answer are closed as they do.
  server.closeIdleConnections();
  const idle = setInterval(() => server.closeIdleConnections(), 50);
  const timer = setTimeout(() => {
    cut = true;
    server.closeAllConnections();
  }, timeoutMs);
  try {
    await closed;
  } finally {
    clearInterval(idle);
    clearTimeout(timer);
  }
  await app.close();
  return { cut };
}
