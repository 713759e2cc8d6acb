import { WakeTimer } from './wake-timer.js';

/**
 * The loop of a worker that drains a durable queue (image variants, the mail queue, the rebuild
 * sender): `wake()` runs `work` now, or once more after the round under way, so a wake-up is never
 * lost and two rounds never overlap. A round that throws is reported to `failed` and tried again
 * `retryMs` later (usually the database was briefly away; the rows wait in their table).
 */
export class DrainLoop {
  private readonly timer = new WakeTimer(() => this.wake());
  private draining: Promise<void> | null = null;
  private running = false;
  private again = false;
  private isStopped = false;

  constructor(
    private readonly work: () => Promise<void>,
    private readonly failed: (error: unknown) => void,
    private readonly retryMs = 5000,
  ) {}

  /** True from the call to `stop()` on: a round under way ends its work early where it can. */
  get stopped(): boolean {
    return this.isStopped;
  }

  /** Runs a round now, or once more after the one under way; nothing once stopped. */
  readonly wake = () => {
    if (this.isStopped) return;
    this.again = true;
    if (!this.running) this.draining = this.drain();
  };

  /** Wakes the loop at `time`, replacing the wake-up set before; none once stopped. */
  at(time: number) {
    if (this.isStopped) this.timer.clear();
    else this.timer.at(time);
  }

  /** Drops the wake-up set by `at()`. */
  clear() {
    this.timer.clear();
  }

  /**
   * Stops waking the loop, then waits for the round under way (and `alongside`, work started beside
   * the loop) to end, at most `timeoutMs`. Whether or not it is awaited, the loop is stopped at once.
   */
  async stop(timeoutMs: number, alongside?: Promise<unknown> | null): Promise<void> {
    this.isStopped = true;
    this.timer.clear();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all([this.draining, alongside]), new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
  }

  /** Resolves once the round under way, if any, has ended (however long that takes). */
  async ended(): Promise<void> {
    await this.draining;
  }

  private async drain() {
    this.running = true;
    try {
      while (this.again && !this.isStopped) {
        this.again = false;
        try {
          await this.work();
        } catch (error) {
          this.failed(error);
          this.at(Date.now() + this.retryMs);
        }
      }
    } finally {
      this.running = false;
    }
  }
}
