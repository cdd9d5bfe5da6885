// The load generator of the benchmarks, in a worker thread so that it never shares the event
// loop of the server it measures. Plain JavaScript: workers do not inherit tsx.
import { parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';
import { cannonOptions, figures } from './load-options.mjs';

const options = cannonOptions(workerData);
// Inside a worker thread autocannon leaves the aggregation to the caller.
parentPort.postMessage(figures(autocannon.aggregateResult([await autocannon(options)], options)));
