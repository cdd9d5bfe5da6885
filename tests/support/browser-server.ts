// One Chromium for a lane of scripts/test.mjs: started here with the tests' options, its
// WebSocket address printed on the first line of stdout; the browser files of the lane connect to
// it (TEST_BROWSER_WS, tests/support/browser.ts). It stops when stdin closes (the runner ended).
import { chromium } from 'playwright-core';
import { HAVE_CHROMIUM, LAUNCH_OPTIONS } from './browser.ts';

// No Chromium here (a developer machine without it: the browser files skip): no address, no server.
if (!HAVE_CHROMIUM) process.exit(0);
const server = await chromium.launchServer(LAUNCH_OPTIONS);
process.stdout.write(`${server.wsEndpoint()}\n`);
const stop = () => server.close().finally(() => process.exit(0));
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.resume();
process.on('SIGTERM', stop);
