// What the two load generators (load-worker.mjs in a thread, load-process.mjs in a process of its
// own) share: autocannon's options from bench/load.ts's input, and the figures they hand back.
// Plain JavaScript: workers do not inherit tsx.

/** autocannon's options: whole requests cycled (several companies' tokens, reads and writes mixed), or paths cycled. */
export function cannonOptions({ url, paths, requests, connections, duration, headers, method, body, overallRate }) {
  let next = 0;
  return {
    url,
    connections,
    duration,
    ...(method && { method }),
    ...(body && { body }),
    ...(overallRate && { overallRate }),
    headers: { 'user-agent': 'bench / 1.0', ...headers },
    requests: requests?.length
      ? [
          {
            setupRequest: (req) => {
              const r = requests[next++ % requests.length];
              return {
                ...req,
                method: r.method ?? req.method,
                path: r.path,
                headers: { ...req.headers, ...r.headers },
                body: r.body ?? req.body,
              };
            },
          },
        ]
      : paths?.length
        ? [{ setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }) }]
        : undefined,
  };
}

/** The figures of an aggregated autocannon result. */
export function figures(result) {
  return {
    // Completed requests over the run (the per-second samples miss the partial last second).
    average: result.requests.total / result.duration,
    total: result.requests.total,
    // autocannon's histogram holds whole milliseconds: the mean keeps what p50 rounds away.
    mean: result.latency.mean,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    s4xx: result['4xx'] ?? 0,
    s5xx: result['5xx'] ?? 0,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

/**
 * loadtest's options for a paced load (`paced`: one request every 1000 / `overallRate` ms, whether
 * or not the ones before were answered, on kept-alive connections; latency from the request's
 * scheduled instant): the arrival of many independent senders, e.g. 5,000 trucks each sending once
 * a minute at their own second. autocannon's `overallRate` sends each second's requests at the
 * second's start instead (every connection its share at once), a burst a second. `requests` cycled.
 */
export function pacedOptions({ url, requests, duration, headers, overallRate }) {
  if (!overallRate || !requests?.length) throw new Error('a paced load needs overallRate and requests');
  let next = 0;
  return {
    url,
    requestsPerSecond: overallRate,
    maxSeconds: duration,
    agentKeepAlive: true,
    quiet: true,
    // Without an inspector loadtest keeps no answer and counts a status over 399 as code -1.
    contentInspector: () => {},
    // Called once per request: its method, path, headers and body from the next of `requests`.
    requestGenerator: (_options, params, request, callback) => {
      const r = requests[next++ % requests.length];
      const body = r.body ?? '';
      params.method = r.method ?? 'GET';
      params.path = r.path;
      params.headers = { 'user-agent': 'bench / 1.0', ...headers, ...r.headers, 'content-length': Buffer.byteLength(body) };
      const req = request(params, callback);
      if (body) req.write(body);
      return req;
    },
  };
}

/** The figures of a loadtest result, as `figures` gives autocannon's (every answer over 399 counts as an error there). */
export function pacedFigures(result) {
  const codes = Object.entries(result.errorCodes ?? {});
  const count = (test) => codes.filter(([code]) => test(Number(code))).reduce((n, [, k]) => n + k, 0);
  const s4xx = count((c) => c >= 400 && c < 500);
  const s5xx = count((c) => c >= 500);
  return {
    average: result.totalRequests / result.totalTimeSeconds,
    total: result.totalRequests,
    mean: result.meanLatencyMs,
    p50: result.percentiles[50] || 0,
    p99: result.percentiles[99] || 0,
    non2xx: s4xx + s5xx,
    s4xx,
    s5xx,
    errors: result.totalErrors - s4xx - s5xx,
    timeouts: 0,
  };
}
