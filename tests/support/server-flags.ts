/**
 * The node flags of the server processes the tests start (`freight-exchange serve`): V8's baseline
 * WebAssembly compiler only, as the test processes themselves run (scripts/test.mjs). A server in a
 * test lives seconds; the optimising recompilation of PGlite's 10 MB module that a deployed server
 * does in its first minutes is CPU such a process never wins back. The answers are the same.
 * tests/platform/serve.test.ts starts the command exactly as it is deployed, without them.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--liftoff-only'];
