import { parseArgs } from 'node:util';
import { accountCommands, AccountInputError } from './accounts/index.ts';
import { CliError, type CliIo, type Command } from './cli/command.ts';
import { ConfigError, readConfig } from './config/config.ts';
import { DataDirInUseError } from './db/lock.ts';
import { serve } from './main.ts';
import { backupCommands } from './ops/index.ts';
import { rateCommands } from './pricing/index.ts';
import { mailCommands } from './mail/index.ts';

/** Every admin command (docs/reference.md#admin-cli); modules contribute theirs. */
const commands: Command[] = [
  ...accountCommands,
  ...rateCommands,
  ...backupCommands,
  ...mailCommands,
  {
    words: ['serve'],
    usage: 'serve',
    options: {},
    async run(_values, config) {
      await serve(config);
    },
  },
];

/** Refusals whose message is meant for the user as it is. */
const EXPECTED = [CliError, AccountInputError, DataDirInUseError, ConfigError];

function usage(): string {
  return [
    'usage: freight-exchange <command>',
    ...commands.flatMap((c) => [`  freight-exchange ${c.usage}`, ...(c.help ? [`      ${c.help}`] : [])]),
  ].join('\n');
}

/** Runs one command and answers its exit code: 0 done, 1 refused, 2 not understood. */
export async function main(argv: string[], io: CliIo = defaultIo()): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help') {
    (argv.length === 0 ? io.err : io.out)(usage());
    return argv.length === 0 ? 2 : 0;
  }
  const command = commands.find((c) => c.words.every((w, i) => argv[i] === w));
  if (!command) {
    io.err(`freight-exchange: unknown command "${argv.slice(0, 2).join(' ')}"; run "freight-exchange --help"`);
    return 2;
  }
  if (argv.slice(command.words.length).includes('--help')) {
    io.out([`usage: freight-exchange ${command.usage}`, ...(command.help ? [command.help] : [])].join('\n'));
    return 0;
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: argv.slice(command.words.length), options: command.options, strict: true, allowPositionals: false })
      .values as typeof values;
  } catch (err) {
    io.err(`freight-exchange: ${(err as Error).message.split('\n')[0]}; usage: freight-exchange ${command.usage}`);
    return 2;
  }
  try {
    await command.run(values, readConfig(), io);
    return 0;
  } catch (err) {
    const message = EXPECTED.some((E) => err instanceof E) ? (err as Error).message : `failed: ${(err as Error)?.message ?? err}`;
    io.err(`freight-exchange: ${message.replace(/\s*\n\s*/g, ' ')}`);
    return 1;
  }
}

function defaultIo(): CliIo {
  return {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    interactive: process.stderr.isTTY === true,
  };
}
