import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { NextFunction, Request, Response } from 'express';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

export { Registry };

type Labels = Record<string, string>;

/**
 * A series read when scraped (the outbox backlog, the builder's last publish). When `read` fails
 * (the database or builder is away) or has no value, the series is missing from that scrape
 * (readiness says why) rather than a made-up 0. `type: 'counter'` for totals another process keeps.
 */
export function scrapedGauge(
  registry: Registry,
  { name, help, labelNames = [], type = 'gauge' }: { name: string; help: string; labelNames?: string[]; type?: 'gauge' | 'counter' },
  read: () => Promise<Array<{ labels?: Labels; value: number }>>,
): void {
  const Kind = type === 'counter' ? Counter : Gauge;
  new Kind({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect(this: Counter | Gauge) {
      const rows = await read().catch(() => []);
      // Replaced at once after reading, so two scrapes at a time never add up.
      this.reset();
      this.remove({});
      for (const { labels, value } of rows) {
        if (this instanceof Counter) this.inc(labels ?? {}, value);
        else this.set(labels ?? {}, value);
      }
    },
  });
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** This process's registry: one per process, shared by every app instance it runs (tests run two). Each replica exposes its own numbers and Prometheus sums them. */
export const registry = new Registry();
const registers = [registry];
export const httpRequests = new Counter({
  name: 'portfolio_http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status.',
  labelNames: ['method', 'route', 'status'],
  registers,
});
export const httpDuration = new Histogram({
  name: 'portfolio_http_request_duration_seconds',
  help: 'Time to answer HTTP requests, by method and route pattern.',
  labelNames: ['method', 'route'],
  buckets: SECONDS,
  registers,
});
export const rebuildRequests = new Counter({
  name: 'portfolio_rebuild_requests_total',
  help: 'Rebuild requests sent by this replica, by result (succeeded, failed).',
  labelNames: ['result'],
  registers,
});
export const rebuildDuration = new Histogram({
  name: 'portfolio_rebuild_request_duration_seconds',
  help: 'Time the builder took to accept a rebuild request.',
  buckets: SECONDS,
  registers,
});

/**
 * Counts every request by its route pattern (/api/books/:id, never the id itself, so the number of
 * series stays small); files and unknown paths fall into 'static' and 'unmatched'.
 */
export function recordRequests(req: Request, res: Response, next: NextFunction) {
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const route = routePattern(req, res);
    const labels = { method: req.method, route, status: String(res.statusCode) };
    httpRequests.inc(labels);
    httpDuration.observe({ method: req.method, route }, seconds);
  });
  next();
}

export function routePattern(req: Request, res: Response): string {
  const routePath = (req.route as { path?: string } | undefined)?.path;
  if (routePath) return `${req.baseUrl ?? ''}${routePath}`;
  const path = (req.originalUrl ?? req.url).split('?')[0];
  if (!path.startsWith('/api/') && res.statusCode < 400) return 'static';
  return 'unmatched';
}

/** Serves GET /metrics on its own port, so nothing a visitor can reach exposes it. */
export async function listenMetrics(port: number, host: string, extra: Registry): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: GET /metrics\n');
      return;
    }
    void Promise.all([registry.metrics(), extra.metrics()]).then(
      ([own, more]) => res.writeHead(200, { 'content-type': registry.contentType }).end(own + more),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

export const portOf = (server: http.Server) => (server.address() as AddressInfo).port;
