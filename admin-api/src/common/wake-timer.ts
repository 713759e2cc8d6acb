/** One pending wake-up of a background worker (a DrainLoop, the newsletter sender): setting a new time replaces the old one; it never keeps the process alive. */
export class WakeTimer {
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly wake: () => void) {}

  at(time: number) {
    this.clear();
    this.timer = setTimeout(this.wake, Math.max(0, time - Date.now()));
    this.timer.unref();
  }

  clear() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
