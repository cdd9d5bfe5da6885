const acc: Record<string, number> = {};
(globalThis as any).__prof = acc;
export function t<T>(name: string, p: Promise<T>): Promise<T> {
  const s = performance.now();
  return p.finally(() => { acc[name] = (acc[name] ?? 0) + performance.now() - s; });
}
export function dump() { const o = Object.entries(acc).map(([k, v]) => `${k}=${v.toFixed(0)}`).join(' '); for (const k of Object.keys(acc)) delete acc[k]; return o; }
