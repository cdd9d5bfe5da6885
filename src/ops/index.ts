/**
 * The ops module's public surface: what other modules (and the composition root) may use of it.
 * Everything else in this directory is the module's own; the structure test refuses an import of it
 * from outside.
 */
export { backupCommands } from './backup/cli.ts';
export { attachBackupSocket } from './backup/serve.ts';
export { attachMetrics, type Metrics } from './metrics.ts';
export { registerOpsRoutes } from './routes.ts';
