#!/usr/bin/env node
// The admin command. TypeScript runs through tsx, so the installed command and the
// sources can never disagree (no separate build step to forget).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
process.exitCode = await main(process.argv.slice(2));
