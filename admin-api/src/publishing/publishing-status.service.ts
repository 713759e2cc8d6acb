import { ConflictException, Inject, Injectable } from '@nestjs/common';
import type { DeployStatus, LastPublish, PublishingStatus, PublishState } from '@portfolio/contract/types';
import type { BuilderBuild, BuilderDeploy } from '@portfolio/contract/webhook';
import { IsNull, MoreThan } from 'typeorm';

import { refusal } from '../common/api-message.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Db } from '../database/db.service.js';
import { fetchBuilderStatus } from './builder-client.js';
import { OutboxEvent } from './outbox-event.entity.js';
import { PublishAttempt } from './publish-attempt.entity.js';
import { RebuildSender } from './rebuild-sender.js';

/** The overlay polls this while it shows a change on its way; the builder must answer quickly or not count. */
const BUILDER_STATUS_TIMEOUT_MS = 2000;

/**
 * The state of publishing as the overlay shows it, put together from the outbox and attempt log
 * (shared by all API replicas through the database) and the builder's own status.
 */
@Injectable()
export class PublishingStatusService {
  constructor(
    private readonly db: Db,
    private readonly sender: RebuildSender,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async status(): Promise<PublishingStatus> {
    const m = this.db.manager;
    const { secret, statusUrl } = this.config.rebuildWebhook;
    const undelivered = await m.countBy(OutboxEvent, { processedAt: IsNull() });
    const status: PublishingStatus = {
      state: 'idle',
      pendingChanges: undelivered,
      lastLiveAt: null,
      lastDurationMs: null,
      lastError: null,
      webhookConfigured: this.sender.configured,
      nextAttemptAt: null,
      liveBuildId: null,
      builderReachable: null,
      lastPublish: null,
      deploy: null,
    };
    if (!this.sender.configured) return status;

    const sender = this.sender.state();
    const [lastAttempt] = await m.find(PublishAttempt, { order: { id: 'DESC' }, take: 1 });
    const builder = statusUrl ? await fetchBuilderStatus(statusUrl, secret!, BUILDER_STATUS_TIMEOUT_MS) : null;
    status.builderReachable = statusUrl ? builder !== null : null;
    status.nextAttemptAt = sender.nextAttemptAt?.toISOString() ?? null;
    status.deploy = deployStatus(builder?.deploy);

    // Delivered is not live: changes after the newest row the live build is known to include are pending too.
    const liveUpTo = builder?.live?.upToEventId;
    if (typeof liveUpTo === 'number') {
      status.pendingChanges = Math.max(undelivered, await m.countBy(OutboxEvent, { id: MoreThan(liveUpTo) }));
    }
    if (builder?.live) {
      status.lastLiveAt = builder.live.finishedAt;
      status.lastDurationMs = builder.live.durationMs;
      status.liveBuildId = builder.live.id;
      status.lastPublish = await this.lastPublish(builder.live);
    } else if (!statusUrl) {
      // A hosted build hook reports nothing back: the best we know is when it accepted a request.
      const [delivered] = await m.find(PublishAttempt, { where: { succeeded: true }, order: { id: 'DESC' }, take: 1 });
      status.lastLiveAt = delivered?.startedAt.toISOString() ?? null;
    }

    const waitingToSend = undelivered > 0 || sender.publishNowRequested || sender.sending;
    const deliveryFailing = waitingToSend && lastAttempt !== undefined && !lastAttempt.succeeded;
    let state: PublishState;
    if (builder?.building) state = 'building';
    else if (deliveryFailing) {
      state = 'failed';
      status.lastError = `The rebuild request failed: ${lastAttempt.error ?? 'unknown error'}. It is retried automatically.`;
    } else if (waitingToSend || builder?.queued) state = 'queued';
    else if (builder?.lastBuild && !builder.lastBuild.ok) {
      state = 'failed';
      status.lastError = builder.lastBuild.logTail?.join('\n') || 'The site build failed.';
      status.nextAttemptAt = builder.retryAt ?? null;
    } else if (builder?.live || (!statusUrl && status.lastLiveAt)) state = 'live';
    else state = 'idle';
    status.state = state;
    return status;
  }

  /** What the live version's publish did; null from a builder that does not say (a build command's host). */
  private async lastPublish(live: BuilderBuild): Promise<LastPublish | null> {
    if (live.mode !== 'full' && live.mode !== 'targeted') return null;
    let liveAfterSaveMs: number | null = null;
    if (live.reasons?.includes('content-changed') && typeof live.upToEventId === 'number') {
      const save = await this.db.manager.findOneBy(OutboxEvent, { id: live.upToEventId });
      const ms = save ? Date.parse(live.finishedAt) - save.createdAt.getTime() : NaN;
      if (Number.isFinite(ms) && ms >= 0) liveAfterSaveMs = ms;
    }
    return { mode: live.mode, pagesUpdated: typeof live.pagesUpdated === 'number' ? live.pagesUpdated : null, liveAfterSaveMs };
  }

  /** 'Publish now': a rebuild request goes out at once; answers with the state right after. */
  async publishNow(): Promise<PublishingStatus> {
    if (!this.sender.configured) {
      throw new ConflictException(refusal('error.publishingNotConfigured'));
    }
    this.sender.publishNow();
    return this.status();
  }
}

/** The builder's deploy to a bucket as the overlay shows it; null when the builder does not deploy. */
function deployStatus(d: BuilderDeploy | null | undefined): DeployStatus | null {
  if (!d || typeof d !== 'object' || typeof d.state !== 'string') return null;
  return {
    state: d.state,
    target: String(d.target ?? ''),
    lastDeployedBuildId: d.lastDeployed?.buildId ?? null,
    lastDeployedAt: d.lastDeployed?.at ?? null,
    lastUploaded: typeof d.lastDeployed?.uploaded === 'number' ? d.lastDeployed.uploaded : null,
    lastError: d.lastError?.message ?? null,
    retryAt: d.retryAt ?? null,
  };
}
