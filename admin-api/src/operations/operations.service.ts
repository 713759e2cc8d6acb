import type http from 'node:http';

import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { statusHeaders } from '@portfolio/contract/webhook';
import { IsNull } from 'typeorm';

import { listenMetrics, portOf, Registry, scrapedGauge } from '../common/metrics.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Db } from '../database/db.service.js';
import { OutboxEvent } from '../publishing/outbox-event.entity.js';
import { PublishAttempt } from '../publishing/publish-attempt.entity.js';

interface BuilderStatusForMetrics {
  live?: { finishedAt: string } | null;
  lastBuild?: { ok: boolean; mode?: string; durationMs: number } | null;
  /** Since the builder started. */
  counts?: { succeeded?: number; failed?: number };
  deploy?: {
    counts?: { deploys?: number; failed?: number };
    lastDeployed?: { ms?: number; uploaded?: number; deleted?: number } | null;
  } | null;
}

export type Readiness = { ready: true } | { ready: false; reason: 'shutting-down' | 'database' | 'migrations' };

/**
 * Readiness (may this replica get traffic?) and the metrics port. Readiness fails while the
 * database does not answer, while migrations are pending, and once a shutdown began, so a load
 * balancer stops sending requests before the process stops taking them.
 */
@Injectable()
export class OperationsService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Operations');
  private migrated = false;
  private draining = false;
  private server: http.Server | null = null;
  /** Series read from the database and builder when scraped (per app, unlike the request counters). */
  readonly scraped = new Registry();

  constructor(
    private readonly db: Db,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    scrapedGauge(this.scraped, { name: 'portfolio_outbox_backlog', help: 'Saved changes not yet delivered to the builder.' }, async () => [
      { value: await this.db.manager.countBy(OutboxEvent, { processedAt: IsNull() }) },
    ]);
    scrapedGauge(
      this.scraped,
      {
        name: 'portfolio_publish_attempts',
        help: 'Rebuild requests in the attempt log (all replicas), by result.',
        labelNames: ['result'],
      },
      async () => {
        const rows = (await this.db.manager
          .createQueryBuilder(PublishAttempt, 'a')
          .select('a.succeeded', 'succeeded')
          .addSelect('COUNT(*)', 'n')
          .groupBy('a.succeeded')
          .getRawMany()) as { succeeded: unknown; n: unknown }[];
        const by = { succeeded: 0, failed: 0 };
        for (const r of rows) by[Number(r.succeeded) ? 'succeeded' : 'failed'] += Number(r.n);
        return Object.entries(by).map(([result, value]) => ({ labels: { result }, value }));
      },
    );
    scrapedGauge(
      this.scraped,
      {
        name: 'portfolio_publish_last_duration_seconds',
        help: "The builder's last publish: how long it took, by result and mode.",
        labelNames: ['result', 'mode'],
      },
      async () => {
        const last = (await this.builderStatus())?.lastBuild;
        return last
          ? [{ labels: { result: last.ok ? 'succeeded' : 'failed', mode: last.mode ?? 'unknown' }, value: last.durationMs / 1000 }]
          : [];
      },
    );
    scrapedGauge(
      this.scraped,
      {
        name: 'portfolio_publishes_total',
        help: "The builder's publishes by result, since it started (every publish between two scrapes counts).",
        labelNames: ['result'],
        type: 'counter',
      },
      async () => {
        const counts = (await this.builderStatus())?.counts;
        return counts
          ? [
              { labels: { result: 'succeeded' }, value: Number(counts.succeeded) || 0 },
              { labels: { result: 'failed' }, value: Number(counts.failed) || 0 },
            ]
          : [];
      },
    );
    scrapedGauge(
      this.scraped,
      {
        name: 'portfolio_deploys_total',
        help: "The builder's deploys of published versions to the bucket (DEPLOY_S3_URL), by result.",
        labelNames: ['result'],
        type: 'counter',
      },
      async () => {
        const counts = (await this.builderStatus())?.deploy?.counts;
        return counts
          ? [
              { labels: { result: 'succeeded' }, value: Number(counts.deploys) || 0 },
              { labels: { result: 'failed' }, value: Number(counts.failed) || 0 },
            ]
          : [];
      },
    );
    scrapedGauge(
      this.scraped,
      { name: 'portfolio_deploy_last_duration_seconds', help: "The builder's last successful deploy: how long it took." },
      async () => {
        const last = (await this.builderStatus())?.deploy?.lastDeployed;
        return last && typeof last.ms === 'number' ? [{ value: last.ms / 1000 }] : [];
      },
    );
    scrapedGauge(
      this.scraped,
      {
        name: 'portfolio_deploy_last_objects',
        help: "The builder's last successful deploy: objects uploaded and deleted.",
        labelNames: ['action'],
      },
      async () => {
        const last = (await this.builderStatus())?.deploy?.lastDeployed;
        return last
          ? [
              { labels: { action: 'uploaded' }, value: Number(last.uploaded) || 0 },
              { labels: { action: 'deleted' }, value: Number(last.deleted) || 0 },
            ]
          : [];
      },
    );
    scrapedGauge(
      this.scraped,
      { name: 'portfolio_publish_live_timestamp_seconds', help: 'When the live site version finished building (Unix time).' },
      async () => {
        const live = (await this.builderStatus())?.live;
        return live ? [{ value: Date.parse(live.finishedAt) / 1000 }] : [];
      },
    );
  }

  async onApplicationBootstrap() {
    const { port, host } = this.config.metrics;
    if (port === null) return;
    this.server = await listenMetrics(port, host, this.scraped);
    this.logger.log(`Metrics on http://${host.includes(':') ? `[${host}]` : host}:${portOf(this.server)}/metrics`);
  }

  async onModuleDestroy() {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  get metricsPort(): number | null {
    return this.server ? portOf(this.server) : null;
  }

  /** From now on readiness fails (SIGTERM): the load balancer sends new requests elsewhere. */
  beginShutdown() {
    this.draining = true;
  }

  async readiness(): Promise<Readiness> {
    if (this.draining) return { ready: false, reason: 'shutting-down' };
    try {
      await this.db.manager.query('SELECT 1');
    } catch {
      return { ready: false, reason: 'database' };
    }
    if (!this.migrated) {
      try {
        this.migrated = !(await this.db.dataSource.showMigrations());
      } catch {
        return { ready: false, reason: 'database' };
      }
      if (!this.migrated) return { ready: false, reason: 'migrations' };
    }
    return { ready: true };
  }

  private cached: { at: number; value: Promise<BuilderStatusForMetrics | null> } | null = null;
  /** The builder's GET /status as it answers (with `deploy` when it deploys), read once per scrape. */
  private builderStatus(): Promise<BuilderStatusForMetrics | null> {
    const { statusUrl, secret } = this.config.rebuildWebhook;
    if (!statusUrl || !secret) return Promise.resolve(null);
    if (!this.cached || Date.now() - this.cached.at > 1000) {
      const value = fetch(statusUrl, {
        headers: { ...statusHeaders(secret), accept: 'application/json' },
        signal: AbortSignal.timeout(2000),
      })
        .then((res) => (res.ok ? (res.json() as Promise<BuilderStatusForMetrics>) : null))
        .catch(() => null);
      this.cached = { at: Date.now(), value };
    }
    return this.cached.value;
  }
}
