import { HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { refusal } from '../common/api-message.js';

const MINUTE = 60_000;
/** Sign-in (both steps of a two-factor sign-in count) and password-reset limits. */
export const LIMITS = {
  loginPerAccount: { limit: 5, windowMs: 15 * MINUTE },
  loginPerClient: { limit: 20, windowMs: 15 * MINUTE },
  resetPerAccount: { limit: 3, windowMs: 60 * MINUTE },
  resetPerClient: { limit: 10, windowMs: 15 * MINUTE },
};

interface Bucket {
  count: number;
  resetAt: number;
}

/**
 * Fixed-window counters kept in memory. With several API replicas each keeps its own count,
 * so the effective limit is multiplied by the replica count; nginx can add a global limit.
 */
@Injectable()
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  /** Throws 429 with Retry-After when `key` already used up `limit` in its window. */
  check(key: string, limit: number) {
    const bucket = this.live(key);
    if (bucket && bucket.count >= limit) {
      const retryAfter = Math.max(1, Math.ceil((bucket.resetAt - Date.now()) / 1000));
      const minutes = Math.ceil(retryAfter / 60);
      throw new HttpException(
        {
          statusCode: HttpStatus.TOO_MANY_REQUESTS,
          ...(minutes === 1 ? refusal('error.tooManyAttemptsOneMinute') : refusal('error.tooManyAttempts', { params: { minutes } })),
          retryAfter,
        },
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
  }

  /**
   * Counts this attempt first, then refuses it when it goes over `limit`: requests running in
   * parallel cannot all slip past a check made before their slow work finishes.
   */
  consume(key: string, limit: number, windowMs: number) {
    this.hit(key, windowMs);
    const bucket = this.live(key)!;
    if (bucket.count > limit) {
      bucket.count = limit; // refused attempts do not extend the lock-out
      this.check(key, limit);
    }
  }

  hit(key: string, windowMs: number) {
    const bucket = this.live(key);
    if (bucket) bucket.count++;
    else this.buckets.set(key, { count: 1, resetAt: Date.now() + windowMs });
    if (this.buckets.size > 10_000) this.sweep();
  }

  /** Gives back one attempt (a successful login does not count against the client's address). */
  refund(key: string) {
    const bucket = this.live(key);
    if (bucket && bucket.count > 0) bucket.count--;
  }

  reset(key: string) {
    this.buckets.delete(key);
  }

  private live(key: string): Bucket | undefined {
    const bucket = this.buckets.get(key);
    if (bucket && bucket.resetAt <= Date.now()) {
      this.buckets.delete(key);
      return undefined;
    }
    return bucket;
  }

  private sweep() {
    const now = Date.now();
    for (const [key, bucket] of this.buckets) if (bucket.resetAt <= now) this.buckets.delete(key);
  }
}
