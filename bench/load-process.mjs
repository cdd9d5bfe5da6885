// The load generator of bench/load.ts in a process of its own (loadInProcess): the server's
// process then spends its CPU on serving alone, so its CPU time per request can be read
// (process.cpuUsage) without the generator's. Options as JSON on stdin; prints the result as JSON.
import autocannon from 'autocannon';
import { cannonOptions, figures } from './load-options.mjs';

let input = '';
for await (const chunk of process.stdin) input += chunk;
process.stdout.write(JSON.stringify(figures(await autocannon(cannonOptions(JSON.parse(input))))));
