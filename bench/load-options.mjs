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
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    s4xx: result['4xx'] ?? 0,
    s5xx: result['5xx'] ?? 0,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}
