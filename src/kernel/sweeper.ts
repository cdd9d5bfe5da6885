/**
 * A sweep run again and again while the server listens (app.ts starts it on listen and stops it on
 * close, before the database closes): the first at once, each next one `intervalMs` after the last
 * ended, so two never overlap in one process. Sweeps are written to be safe when several processes
 * run them at once. Its timer is never the reason the process stays alive.
 */
export class Sweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = true;

  constructor(
    private readonly sweep: () => Promise<unknown>,
    private readonly intervalMs: number,
    private readonly onError?: (err: unknown) => void,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops the timer and waits for a sweep in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delay: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.sweep()
        .catch((err) => this.onError?.(err))
        .finally(() => {
          this.running = undefined;
          this.schedule(this.intervalMs);
        });
    }, delay);
    this.timer.unref();
  }
}

/**
 * A worker's wait between rounds that its own events may cut short: `sleep(ms)` resolves after
 * `ms` or at `wake()` (a job finished, a stop asked), whichever comes first; a wake with no
 * sleep under way does nothing.
 */
export class Nap {
  private waking: (() => void) | null = null;

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waking = null;
        resolve();
      }, ms);
      this.waking = () => {
        clearTimeout(timer);
        this.waking = null;
        resolve();
      };
    });
  }

  wake(): void {
    this.waking?.();
  }
}
