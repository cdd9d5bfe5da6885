import type { ParseArgsConfig } from 'node:util';
import type { Config } from '../config/config.ts';

/** A refusal of the command line: printed as one line on stderr, exit code 1, nothing changed. */
export class CliError extends Error {}

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** True when stderr is a terminal: long work may draw progress there. */
  interactive: boolean;
}

export interface Command {
  /** The words that name it, e.g. ['company', 'create']. */
  words: string[];
  usage: string;
  /** What it does, in one sentence (`--help`). */
  help?: string;
  options: NonNullable<ParseArgsConfig['options']>;
  run(values: Record<string, string | boolean | undefined>, config: Config, io: CliIo): Promise<void>;
}

export function required(values: Record<string, unknown>, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v === '') throw new CliError(`--${name} is required`);
  return v;
}

export function positiveInt(values: Record<string, unknown>, name: string): number {
  const text = required(values, name);
  if (!/^\d{1,10}$/.test(text) || Number(text) <= 0 || Number(text) > 2147483647)
    throw new CliError(`--${name} must be a positive whole number, got "${text}"`);
  return Number(text);
}

/** With --json exactly one JSON object on stdout; otherwise a readable line. */
export function print(io: CliIo, json: boolean, value: unknown, human: string): void {
  io.out(json ? JSON.stringify(value) : human);
}
