#!/usr/bin/env node
// The admin command. TypeScript runs through tsx, so the installed command and the
// sources can never disagree (no separate build step to forget). The project's tsconfig is
// named explicitly: tsx would otherwise look for one in the working directory, and the pages'
// JSX settings (Preact) would be missing when started from anywhere else.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
const { main } = await import('../src/cli.ts');
process.exitCode = await main(process.argv.slice(2));
