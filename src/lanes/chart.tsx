import type { Translate } from '../kernel/i18n.ts';
import type { LaneMonth } from './store.ts';

/**
 * The lane's chart, drawn on the server as SVG (docs/reference.md#lane-prices: readable without JavaScript):
 * per month the middle half of the prices (p25–p75) as a bar and the median as a point, the
 * medians joined by a line where consecutive months both show figures. It has a title and a
 * description, both axes labelled, and scales with the page (viewBox), so it fits 390 px; the
 * same values are the table beside it, which is what a screen reader reads (the drawing is one
 * image with its title).
 */

// Drawn small and scaled up (CSS caps its width): at 390 px the text stays about 11 px high.
const W = 420;
const H = 270;
const PAD = { left: 70, right: 24, top: 14, bottom: 64 };

/** A round step for about `count` ticks up to `max`: 1, 2 or 5 times a power of ten. */
function niceStep(max: number, count: number): number {
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? power * 10;
}

export interface ChartText {
  title: string;
  desc: string;
  xAxis: string;
  yAxis: string;
  median: string;
  range: string;
}

export function LaneChart({
  months,
  money,
  monthLabel,
  text,
  id = 'lane-chart',
}: {
  /** the ids of its title and description start with it (two charts on a page: the lane and the wider one) */
  id?: string;
  months: LaneMonth[];
  /** a price as the reader writes it */
  money: (n: number) => string;
  monthLabel: (month: string) => string;
  text: ChartText;
  t?: Translate;
}) {
  const shown = months.filter((m) => m.median !== null);
  const top = Math.max(1, ...shown.map((m) => m.p75 ?? m.median ?? 0));
  const step = niceStep(top, 4);
  const max = Math.ceil(top / step) * step;
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / months.length;
  const x = (i: number) => PAD.left + slot * (i + 0.5);
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  const ticks = Array.from({ length: Math.round(max / step) + 1 }, (_, i) => i * step);
  // Every month keeps its slot; its label only where there is room (about 50 units per label).
  const every = Math.max(1, Math.ceil(months.length / Math.floor(plotW / 50)));
  const bar = Math.max(2, Math.min(18, slot * 0.5));
  const dot = Math.max(2, Math.min(4, slot / 3));
  // The median line runs through consecutive months with figures; a hidden month breaks it.
  const segments: string[] = [];
  let current: string[] = [];
  months.forEach((m, i) => {
    if (m.median === null) {
      if (current.length > 1) segments.push(current.join(' '));
      current = [];
    } else current.push(`${x(i).toFixed(1)},${y(m.median).toFixed(1)}`);
  });
  if (current.length > 1) segments.push(current.join(' '));
  return (
    <svg
      class="lane-chart"
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-labelledby={`${id}-title ${id}-desc`}
      data-testid={id}
      preserveAspectRatio="xMidYMid meet"
    >
      <title id={`${id}-title`}>{text.title}</title>
      <desc id={`${id}-desc`}>{text.desc}</desc>
      <g class="axis">
        {ticks.map((v) => (
          <g>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} class="grid-line" />
            <text x={PAD.left - 6} y={y(v) + 4} text-anchor="end">
              {money(v)}
            </text>
          </g>
        ))}
        {months.map((m, i) =>
          // Counted back from the newest month, which is always labelled.
          (months.length - 1 - i) % every === 0 ? (
            <text x={x(i)} y={H - PAD.bottom + 16} text-anchor="middle">
              {monthLabel(m.month)}
            </text>
          ) : null,
        )}
        <text x={PAD.left + plotW / 2} y={H - 6} text-anchor="middle" class="axis-label">
          {text.xAxis}
        </text>
        <text x={12} y={PAD.top + plotH / 2} text-anchor="middle" class="axis-label" transform={`rotate(-90 12 ${PAD.top + plotH / 2})`}>
          {text.yAxis}
        </text>
      </g>
      <g>
        {months.map((m, i) =>
          m.p25 !== null && m.p75 !== null ? (
            <rect class="range" x={x(i) - bar / 2} width={bar} y={y(m.p75)} height={Math.max(1, y(m.p25) - y(m.p75))} rx="2" />
          ) : null,
        )}
        {segments.map((points) => (
          <polyline class="median-line" points={points} />
        ))}
        {months.map((m, i) => (m.median !== null ? <circle class="median" cx={x(i)} cy={y(m.median)} r={dot} /> : null))}
      </g>
      <g class="legend">
        <rect class="range" x={PAD.left} y={H - 36} width="10" height="10" rx="2" />
        <text x={PAD.left + 14} y={H - 27}>
          {text.range}
        </text>
        <circle class="median" cx={PAD.left + 170} cy={H - 31} r="4" />
        <text x={PAD.left + 178} y={H - 27}>
          {text.median}
        </text>
      </g>
    </svg>
  );
}
