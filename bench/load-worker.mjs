// The load generator of the benchmarks, in a worker thread so that it never shares the event
// loop of the server it measures. Plain JavaScript: workers do not inherit tsx.
// autocannon by default (closed loop, or `overallRate` as autocannon keeps it: every connection
// sends its share of a second at the second's start); `paced`: loadtest's constant arrival rate.
import { parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';
import { loadTest } from 'loadtest';
import { cannonOptions, figures, pacedFigures, pacedOptions } from './load-options.mjs';

if (workerData.paced) parentPort.postMessage(pacedFigures(await loadTest(pacedOptions(workerData))));
else {
  const options = cannonOptions(workerData);
  // Inside a worker thread autocannon leaves the aggregation to the caller.
  parentPort.postMessage(figures(autocannon.aggregateResult([await autocannon(options)], options)));
}
