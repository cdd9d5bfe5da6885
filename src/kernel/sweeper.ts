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
