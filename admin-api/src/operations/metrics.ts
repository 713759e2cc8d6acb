import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NextFunction, Request, Response } from 'express';

/**
 * A small Prometheus registry (text exposition format 0.0.4): counters, histograms and gauges read
 * when scraped. Small enough to keep here rather than add prom-client; each replica exposes its
 * own numbers and Prometheus sums them.
 */
type Labels = Record<string, string>;

const escape = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const labelText = (labels: Labels) => {
  const parts = Object.entries(labels).map(([k, v]) => `${k}="${escape(v)}"`);
  return parts.length ? `{${parts.join(',')}}` : '';
};

interface Metric {
  render(): Promise<string> | string;
}

export class Counter implements Metric {
  private readonly values = new Map<string, number>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  inc(labels: Labels = {}, by = 1) {
    const key = labelText(labels);
    this.values.set(key, (this.values.get(key) ?? 0) + by);
  }
  get(labels: Labels = {}) {
    return this.values.get(labelText(labels)) ?? 0;
  }
  render() {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const [key, v] of this.values) lines.push(`${this.name}${key} ${v}`);
    return lines.join('\n');
  }
}

export class Histogram implements Metric {
  private readonly series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: number[],
  ) {}
  observe(labels: Labels, value: number) {
    const key = labelText(labels);
    let s = this.series.get(key);
    if (!s) this.series.set(key, (s = { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 }));
    this.buckets.forEach((b, i) => {
      if (value <= b) s.counts[i]++;
    });
    s.sum += value;
    s.count++;
  }
  render() {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const s of this.series.values()) {
      this.buckets.forEach((b, i) => lines.push(`${this.name}_bucket${labelText({ ...s.labels, le: String(b) })} ${s.counts[i]}`));
      lines.push(`${this.name}_bucket${labelText({ ...s.labels, le: '+Inf' })} ${s.count}`);
      lines.push(`${this.name}_sum${labelText(s.labels)} ${s.sum}`);
      lines.push(`${this.name}_count${labelText(s.labels)} ${s.count}`);
    }
    return lines.join('\n');
  }
}

/** Values read at scrape time (the outbox backlog, the builder's last publish). */
export class Gauge implements Metric {
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly read: () => Promise<Array<{ labels?: Labels; value: number }>>,
    /** 'counter' for totals another process keeps (the builder's deploy counts). */
    private readonly type: 'gauge' | 'counter' = 'gauge',
  ) {}
  async render() {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} ${this.type}`];
    try {
      for (const { labels, value } of await this.read()) lines.push(`${this.name}${labelText(labels ?? {})} ${value}`);
    } catch {
      // The database or builder is away: the series is missing from this scrape (readiness says why).
    }
    return lines.join('\n');
  }
}

export class Registry {
  private readonly metrics: Metric[] = [];
  add<T extends Metric>(metric: T): T {
    this.metrics.push(metric);
    return metric;
  }
  async render(): Promise<string> {
    return `${(await Promise.all(this.metrics.map((m) => m.render()))).join('\n')}\n`;
  }
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** This process's registry: one per process, shared by every app instance it runs (tests run two). */
export const registry = new Registry();
export const httpRequests = registry.add(new Counter('portfolio_http_requests_total', 'HTTP requests answered, by method, route pattern and status.'));
export const httpDuration = registry.add(new Histogram('portfolio_http_request_duration_seconds', 'Time to answer HTTP requests, by method and route pattern.', SECONDS));
export const rebuildRequests = registry.add(new Counter('portfolio_rebuild_requests_total', 'Rebuild requests sent by this replica, by result (succeeded, failed).'));
export const rebuildDuration = registry.add(new Histogram('portfolio_rebuild_request_duration_seconds', 'Time the builder took to accept a rebuild request.', SECONDS));

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
    void Promise.all([registry.render(), extra.render()]).then(
      ([own, more]) => res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }).end(own + more),
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
