import fs from 'node:fs/promises';
import path from 'node:path';
import cliProgress from 'cli-progress';
import { withDatabase } from '../accounts/index.ts';
import { CliError, positiveInt, print, required, type Command } from '../cli/command.ts';
import { FileRefused } from '../kernel/refused.ts';
import { describeProblem, importRateSheet, sheetOptionProblems } from './import.ts';

const OPTION_FLAGS: Record<string, string> = { valid_from: '--valid-from', valid_to: '--valid-to', company: '--company', file: '--file' };

export const rateCommands: Command[] = [
  {
    words: ['rates', 'import'],
    usage:
      'rates import --company ID --file PATH [--name NAME] [--currency EUR] [--visibility private|exchange|public_search] [--valid-from DATE] [--valid-to DATE] [--json]',
    options: {
      company: { type: 'string' },
      file: { type: 'string' },
      name: { type: 'string' },
      currency: { type: 'string' },
      visibility: { type: 'string' },
      'valid-from': { type: 'string' },
      'valid-to': { type: 'string' },
      json: { type: 'boolean' },
    },
    async run(values, config, io) {
      const companyId = positiveInt(values, 'company');
      const file = required(values, 'file');
      let csvText: string;
      try {
        csvText = await fs.readFile(file, 'utf8');
      } catch (err) {
        throw new CliError(`--file: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
      }
      const sheetOptions = {
        name: (values.name as string | undefined) ?? path.basename(file).replace(/\.[^.]*$/, ''),
        currency: values.currency as string | undefined,
        visibility: values.visibility as string | undefined,
        validFrom: values['valid-from'] as string | undefined,
        validTo: values['valid-to'] as string | undefined,
      };
      const bar = io.interactive
        ? new cliProgress.SingleBar(
            { stream: process.stderr, format: '{phase} {bar} {value}/{total} lines', hideCursor: true },
            cliProgress.Presets.shades_classic,
          )
        : null;
      let started = false;
      try {
        // Options are checked before the database is opened.
        const optionProblems = sheetOptionProblems(sheetOptions);
        if (optionProblems.length) throw new FileRefused(optionProblems);
        const result = await withDatabase(config, (db) =>
          importRateSheet(db, {
            companyId,
            ...sheetOptions,
            csvText,
            onProgress: (done, total, phase) => {
              if (!bar) return;
              if (!started) bar.start(total, done, { phase });
              started = true;
              bar.setTotal(total);
              bar.update(done, { phase });
            },
          }),
        );
        bar?.stop();
        print(
          io,
          !!values.json,
          { sheet_id: result.sheetId, lines: result.lines },
          `imported rate sheet ${result.sheetId}: ${result.lines} lines`,
        );
      } catch (err) {
        bar?.stop();
        if (err instanceof FileRefused) {
          // One line on stderr; options are named as their flags.
          const problems = err.problems.map((p) =>
            p.line === null && p.field ? describeProblem({ ...p, field: OPTION_FLAGS[p.field] ?? `--${p.field}` }) : describeProblem(p),
          );
          throw new CliError(
            `${file}: rate sheet refused, ${err.total} problem${err.total === 1 ? '' : 's'}: ${problems.slice(0, 10).join('; ')}${err.total > 10 ? `; … and ${err.total - 10} more` : ''}`,
          );
        }
        throw err;
      }
    },
  },
];
