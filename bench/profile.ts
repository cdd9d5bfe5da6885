import fs from 'node:fs';
import inspector from 'node:inspector';
import path from 'node:path';

/**
 * BENCH_CPU_PROF=<dir>: a CPU profile of the server's thread during one measurement (the format of
 * `node --cpu-prof`, without the seeding), written as <dir>/<label>-<name>.cpuprofile; summarise
 * with bench/profile-summary.ts. Without the variable, `run` runs alone.
 */
export async function profiled<T>(label: string, name: string, run: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_CPU_PROF;
  if (!dir) return run();
  const session = new inspector.Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<any>((resolve, reject) => session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 200 });
  await post('Profiler.start');
  try {
    return await run();
  } finally {
    const { profile } = await post('Profiler.stop');
    session.disconnect();
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${label}-${name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}.cpuprofile`);
    fs.writeFileSync(file, JSON.stringify(profile));
    console.log(`  profile: ${file}`);
  }
}
