// Where the time went in a `node --cpu-prof` profile: self time by area (package, src module,
// Node internals, garbage collection, idle) and the top functions. Usage:
//   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/freights.ts
//   node --import tsx bench/profile-summary.ts /tmp/prof/<file>.cpuprofile [top]
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const file = process.argv[2];
if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [top]');
const top = Number(process.argv[3] ?? 25);
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
for (const [i, id] of profile.samples.entries()) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));

function area(url: string, fn: string): string {
  if (fn === '(idle)') return '(idle)';
  if (fn === '(garbage collector)') return '(garbage collector)';
  if (fn === '(program)') return '(program)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const src = /\/src\/([^/]+)\//.exec(url);
  if (src) return `src/${src[1]}`;
  if (url.startsWith('node:') || url === '') return 'node internals / native';
  return url.replace(/^file:\/\/.*\/(bench|tests)\//, '$1/');
}

// Inclusive time by area: a sample counts once for every area on its stack (what a layer costs with what it calls).
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const inclusive = new Map<string, number>();
for (const [id, us] of self) {
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const { url, functionName } = byId.get(cur)!.callFrame;
    if (functionName !== '(root)') seen.add(area(url, functionName));
  }
  for (const a of seen) inclusive.set(a, (inclusive.get(a) ?? 0) + us);
}

const areas = new Map<string, number>();
const functions = new Map<string, number>();
let total = 0;
for (const [id, us] of self) {
  const node = byId.get(id)!;
  const { functionName, url, lineNumber } = node.callFrame;
  total += us;
  const a = area(url, functionName);
  areas.set(a, (areas.get(a) ?? 0) + us);
  const key = `${functionName || '(anonymous)'}  ${a}${url ? `:${lineNumber + 1}` : ''}`;
  functions.set(key, (functions.get(key) ?? 0) + us);
}
const busy = total - (areas.get('(idle)') ?? 0);
const pct = (us: number, of = busy) => `${((100 * us) / of).toFixed(1).padStart(5)} %`;
console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy (shares below are of busy time)`);
console.log('\nby area');
for (const [a, us] of [...areas]
  .filter(([a]) => a !== '(idle)')
  .sort((x, y) => y[1] - x[1])
  .slice(0, top))
  console.log(`  ${pct(us)}  ${a}`);
console.log('\nby area, inclusive (with what it calls)');
for (const [a, us] of [...inclusive]
  .filter(([a]) => !a.startsWith('('))
  .sort((x, y) => y[1] - x[1])
  .slice(0, top))
  console.log(`  ${pct(us)}  ${a}`);
console.log('\ntop functions (self time)');
for (const [f, us] of [...functions]
  .filter(([f]) => !f.startsWith('(idle)'))
  .sort((x, y) => y[1] - x[1])
  .slice(0, top))
  console.log(`  ${pct(us)}  ${f}`);
