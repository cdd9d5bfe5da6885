import cliProgress from 'cli-progress';

/**
 * Progress of a long backup or restore: on a terminal, a bar per phase on stderr (as `rates
 * import` draws one); otherwise nothing, so that stdout keeps its one line (or JSON object) and
 * a refusal its one line on stderr.
 */
export interface Progress {
  /** A new phase: its name and, when known, how many bytes (or items) it will count. */
  phase(name: string, total?: number): void;
  /** How far the phase has come. */
  update(done: number, total?: number): void;
  stop(): void;
}

export function progressOn(interactive: boolean): Progress {
  if (!interactive) return { phase() {}, update() {}, stop() {} };
  let bar: cliProgress.SingleBar | null = null;
  let unit = '';
  const stop = () => {
    bar?.stop();
    bar = null;
  };
  return {
    phase(name, total) {
      stop();
      unit = total === undefined ? '' : ' {done} of {all}';
      bar = new cliProgress.SingleBar(
        { stream: process.stderr, format: `{phase} {bar} {percentage}%${unit}`, hideCursor: true, fps: 5 },
        cliProgress.Presets.shades_classic,
      );
      bar.start(total ?? 1, 0, { phase: name, done: size(0), all: size(total ?? 0) });
    },
    update(done, total) {
      if (!bar) return;
      if (total !== undefined) bar.setTotal(total);
      bar.update(done, { done: size(done), all: size(total ?? bar.getTotal()) });
    },
    stop,
  };
}

/** Bytes as a person reads them (SI). */
export function size(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = bytes / 1000;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}
