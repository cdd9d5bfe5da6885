import { parseArgs } from 'node:util';
import { CliError, type CliIo, type Command } from './cli/command.ts';
import { ConfigError, readConfig } from './config/config.ts';
import { DataDirInUseError } from './db/lock.ts';

/**
 * Every admin command (docs/reference.md#admin-cli); modules contribute theirs. A module is loaded
 * when one of its commands runs (by the command's first word), every module for --help: a backup
 * or a user created does not load the app's routes and views (about a second of CPU a command).
 */
interface Owner {
  /** The first words of its commands. */
  words: string[];
  load(): Promise<{ commands: Command[]; expected?: Array<new (...args: never[]) => Error> }>;
}
const OWNERS: Owner[] = [
  {
    words: ['company', 'user', 'seed'],
    load: async () => {
      const m = await import('./accounts/index.ts');
      return { commands: m.accountCommands, expected: [m.AccountInputError] };
    },
  },
  { words: ['rates'], load: async () => ({ commands: (await import('./pricing/index.ts')).rateCommands }) },
  { words: ['backup', 'restore'], load: async () => ({ commands: (await import('./ops/index.ts')).backupCommands }) },
  { words: ['mail'], load: async () => ({ commands: (await import('./mail/index.ts')).mailCommands }) },
  {
    words: ['serve'],
    load: async () => ({
      commands: [
        {
          words: ['serve'],
          usage: 'serve',
          options: {},
          async run(_values, config) {
            const { serve } = await import('./main.ts');
            await serve(config);
          },
        },
      ],
    }),
  },
];

/** Refusals whose message is meant for the user as it is (and the loaded modules' own). */
const EXPECTED: Array<new (...args: never[]) => Error> = [CliError, DataDirInUseError, ConfigError];

/** The commands of the modules that own `first` (every module when undefined), in the order of --help. */
async function commandsFor(first?: string): Promise<Command[]> {
  const loaded = await Promise.all(OWNERS.filter((o) => first === undefined || o.words.includes(first)).map((o) => o.load()));
  for (const E of loaded.flatMap((l) => l.expected ?? [])) if (!EXPECTED.includes(E)) EXPECTED.push(E);
  return loaded.flatMap((l) => l.commands);
}

function usage(commands: Command[]): string {
  return [
    'usage: freight-exchange <command>',
    ...commands.flatMap((c) => [`  freight-exchange ${c.usage}`, ...(c.help ? [`      ${c.help}`] : [])]),
  ].join('\n');
}

/** Runs one command and answers its exit code: 0 done, 1 refused, 2 not understood. */
export async function main(argv: string[], io: CliIo = defaultIo()): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help') {
    (argv.length === 0 ? io.err : io.out)(usage(await commandsFor()));
    return argv.length === 0 ? 2 : 0;
  }
  const commands = await commandsFor(argv[0]);
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
