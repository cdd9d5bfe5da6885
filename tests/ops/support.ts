import assert from 'node:assert/strict';
import parsePrometheusTextFormat, { type PromFamily, type PromSample } from 'parse-prometheus-text-format';
import type { TestApp } from '../support/harness.ts';

export const METRICS_TOKEN = 'metrics-token-0123456789';

/** GET /metrics with the bearer token, parsed by a Prometheus text-format parser (not ours). */
export async function scrape(app: TestApp): Promise<Scrape> {
  const res = await app.get('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  assert.equal(res.status, 200, res.text);
  assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  return new Scrape(res.text);
}

/**
 * A scrape as parse-prometheus-text-format reads it. That parser keeps a histogram's labels only
 * when it has none (it folds every labelled series of a histogram into one), so histograms are
 * read a second time with their `# TYPE … histogram` lines left out: each `_bucket`, `_sum` and
 * `_count` line is then a sample of its own with all its labels, parsed by the same parser.
 */
export class Scrape {
  readonly families: PromFamily[];
  private readonly flat: PromFamily[];
  constructor(readonly text: string) {
    this.families = parsePrometheusTextFormat(text);
    // Untyped, a histogram's lines come as a family per run of one suffix: joined again by name.
    const flat = new Map<string, PromFamily>();
    for (const f of parsePrometheusTextFormat(text.replace(/^# TYPE \S+ histogram\n/gm, ''))) {
      const known = flat.get(f.name);
      if (known) known.metrics.push(...f.metrics);
      else flat.set(f.name, f);
    }
    this.flat = [...flat.values()];
  }

  family(name: string): PromFamily {
    const f = this.families.find((x) => x.name === name);
    assert.ok(f, `no ${name} in /metrics`);
    return f;
  }

  /** The sample of `name` whose labels include `labels` (exactly one); a histogram's parts by `name_count`, `name_bucket` … */
  sample(name: string, labels: Record<string, string> = {}): PromSample | undefined {
    const family = this.families.find((x) => x.name === name && x.type !== 'HISTOGRAM') ?? this.flat.find((x) => x.name === name);
    assert.ok(family, `no ${name} in /metrics`);
    const found = family.metrics.filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
    assert.ok(found.length <= 1, `${name} ${JSON.stringify(labels)}: ${found.length} samples`);
    return found[0];
  }

  /** The label sets of every sample of `name`. */
  sampleLabels(name: string): Array<Record<string, string>> {
    const family = this.families.find((x) => x.name === name) ?? this.flat.find((x) => x.name === name);
    return (family?.metrics ?? []).map((m) => m.labels ?? {});
  }

  /** A gauge's or counter's value; undefined: no such series. */
  value(name: string, labels: Record<string, string> = {}): number | undefined {
    const s = this.sample(name, labels);
    return s === undefined ? undefined : Number(s.value);
  }

  /** A histogram's series: its count, sum and cumulative buckets by `le`. */
  histogram(name: string, labels: Record<string, string>): { count: number; sum: number; buckets: Map<string, number> } | undefined {
    const count = this.value(`${name}_count`, labels);
    if (count === undefined) return undefined;
    const buckets = new Map(
      this.flat
        .find((x) => x.name === `${name}_bucket`)!
        .metrics.filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))
        .map((m) => [m.labels!.le!, Number(m.value)] as const),
    );
    return { count, sum: this.value(`${name}_sum`, labels)!, buckets };
  }
}
