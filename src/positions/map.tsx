import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { Point } from './eta.ts';

/**
 * The tracking map (docs/reference.md#tracking): an SVG drawn on the server, so no third-party server sees
 * who looks at which truck. The land and the borders between countries are Natural Earth's
 * (public domain) at 1:50 million, from the npm package world-atlas (ISC licence), read once a
 * process with topojson-client (ISC). The view is the box around the route's ends and the
 * positions; outlines are clamped to a margin around it and thinned to a pixel, so the page
 * carries a few kilobytes, not the world.
 */

const WIDTH = 640;
const MIN_SPAN_DEG = 0.6;

type Ring = number[][];

interface Atlas {
  /** every land polygon's rings, each with its bounding box [minLon, minLat, maxLon, maxLat] */
  land: Array<{ box: number[]; rings: Ring[] }>;
  borders: Array<{ box: number[]; line: Ring }>;
}

let atlas: Atlas | undefined;

const boxOf = (points: Ring) => {
  let a = Infinity;
  let b = Infinity;
  let c = -Infinity;
  let d = -Infinity;
  for (const [x, y] of points) {
    if (x! < a) a = x!;
    if (y! < b) b = y!;
    if (x! > c) c = x!;
    if (y! > d) d = y!;
  }
  return [a, b, c, d];
};

function loadAtlas(): Atlas {
  if (atlas) return atlas;
  const path = createRequire(import.meta.url).resolve('world-atlas/countries-50m.json');
  const topology = JSON.parse(readFileSync(path, 'utf8')) as Topology<{ countries: GeometryCollection }>;
  const countries = feature(topology, topology.objects.countries);
  const land: Atlas['land'] = [];
  for (const f of countries.features) {
    const g = f.geometry;
    const polygons = g?.type === 'Polygon' ? [g.coordinates] : g?.type === 'MultiPolygon' ? g.coordinates : [];
    for (const rings of polygons) land.push({ box: boxOf(rings[0]!), rings });
  }
  const lines = mesh(topology, topology.objects.countries, (a, b) => a !== b);
  const borders = lines.coordinates.map((line) => ({ box: boxOf(line), line }));
  atlas = { land, borders };
  return atlas;
}

const meets = (a: number[], b: number[]) => a[0]! <= b[2]! && a[2]! >= b[0]! && a[1]! <= b[3]! && a[3]! >= b[1]!;

export interface MapInput {
  from: Point | null;
  to: Point | null;
  track: readonly Point[];
  labels: { map: string; from: string; to: string; truck: string };
}

/** The map as an SVG element, or null when nothing has coordinates. */
export function TrackingMap({ from, to, track, labels }: MapInput) {
  const points = [...(from ? [from] : []), ...(to ? [to] : []), ...track];
  if (!points.length) return null;
  let [w, s, e, n] = boxOf(points.map((p) => [p.longitude, p.latitude]));
  const padLon = Math.max((e! - w!) * 0.15, MIN_SPAN_DEG / 2);
  const padLat = Math.max((n! - s!) * 0.15, MIN_SPAN_DEG / 2);
  w = w! - padLon;
  e = e! + padLon;
  s = Math.max(-85, s! - padLat);
  n = Math.min(85, n! + padLat);
  const k = Math.cos((((s + n) / 2) * Math.PI) / 180);
  const scale = WIDTH / ((e - w) * k);
  const height = Math.min(WIDTH, Math.max(240, Math.round((n - s) * scale)));
  // Centre the box vertically when the height was bounded.
  const top = (n + s) / 2 + height / 2 / scale;
  const x = (lon: number) => (lon - w) * k * scale;
  const y = (lat: number) => (top - lat) * scale;
  const clamp = (v: number, max: number) => Math.min(2 * max, Math.max(-max, v));
  const view = [w - (e - w), s - (n - s), e + (e - w), n + (n - s)];
  const pathOf = (ring: Ring, close: boolean) => {
    let d = '';
    let px = Number.NaN;
    let py = Number.NaN;
    for (const [lon, lat] of ring) {
      const cx = Math.round(clamp(x(lon!), WIDTH));
      const cy = Math.round(clamp(y(lat!), height));
      if (Math.abs(cx - px) + Math.abs(cy - py) < 2) continue;
      d += `${d ? 'L' : 'M'}${cx} ${cy}`;
      px = cx;
      py = cy;
    }
    return d && close ? `${d}Z` : d;
  };
  const { land, borders } = loadAtlas();
  const landPath = land
    .filter((p) => meets(p.box, view))
    .flatMap((p) => p.rings.map((r) => pathOf(r, true)))
    .filter((d) => d.length > 12)
    .join('');
  const borderPath = borders
    .filter((b) => meets(b.box, view))
    .map((b) => pathOf(b.line, false))
    .filter((d) => d.includes('L'))
    .join('');
  const at = (p: Point) => `${x(p.longitude).toFixed(1)},${y(p.latitude).toFixed(1)}`;
  const last = track[track.length - 1];
  return (
    <svg
      class="tracking-map"
      viewBox={`0 0 ${WIDTH} ${height}`}
      role="img"
      aria-label={labels.map}
      data-testid="tracking-map"
      xmlns="http://www.w3.org/2000/svg"
    >
      <title>{labels.map}</title>
      <rect width={WIDTH} height={height} fill="#dbe9f4" />
      <path d={landPath} fill="#f3f1ea" stroke="#9fb3c4" stroke-width="0.8" fill-rule="evenodd" />
      <path d={borderPath} fill="none" stroke="#b7a99a" stroke-width="0.8" stroke-dasharray="3 2" />
      {from && to && <polyline points={`${at(from)} ${at(to)}`} fill="none" stroke="#8a8a8a" stroke-width="1.5" stroke-dasharray="6 4" />}
      {track.length > 1 && (
        <polyline points={track.map(at).join(' ')} fill="none" stroke="#0b63b6" stroke-width="3" stroke-linejoin="round" />
      )}
      {from && (
        <g data-testid="map-from">
          <circle cx={x(from.longitude)} cy={y(from.latitude)} r="7" fill="#2e7d32" stroke="#fff" stroke-width="2" />
          <title>{labels.from}</title>
        </g>
      )}
      {to && (
        <g data-testid="map-to">
          <circle cx={x(to.longitude)} cy={y(to.latitude)} r="7" fill="#b3261e" stroke="#fff" stroke-width="2" />
          <title>{labels.to}</title>
        </g>
      )}
      {last && (
        <g data-testid="map-truck" data-at={`${last.latitude},${last.longitude}`}>
          <rect
            x={x(last.longitude) - 8}
            y={y(last.latitude) - 8}
            width="16"
            height="16"
            rx="3"
            fill="#0b63b6"
            stroke="#fff"
            stroke-width="2"
          />
          <title>{labels.truck}</title>
        </g>
      )}
    </svg>
  );
}
