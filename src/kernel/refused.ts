/**
 * A file refused for its problems, named by line: the one error of every reader of a pushed or
 * imported file (status CSV, FSU, XFSU, rate sheets; files/push.ts answers it 406, the rate-sheet
 * command prints it). Nothing of a refused file is stored.
 */

/** A problem of a file: its line (1 = header; null for the whole file or an option), column and field. */
export interface FileProblem {
  line: number | null;
  /** 1-based column, when the reader knows it; null or absent for the whole line */
  column?: number | null;
  /** the column's header name, or the option or part of the request (`currency`, `content`) */
  field: string | null;
  message: string;
}

/** The file cannot be used: every problem found (the first of them kept), and how many there were. */
export class FileRefused extends Error {
  constructor(
    readonly problems: FileProblem[],
    readonly total = problems.length,
  ) {
    const shown = problems
      .slice(0, 5)
      .map((p) => describeProblem(p))
      .join('; ');
    super(`${shown}${total > 5 ? `; … and ${total - 5} more problems` : ''}`);
  }
}

/**
 * A problem in words: `currency: …` for one of no line (`whole` when it names no field either).
 * A reader that counts columns (`column` set, null for a whole line) names a line by its column:
 * `line 3, column 4 (kg_100): …`, `line 3: …`; the others by field: `line 3, from_code: …`.
 */
export function describeProblem(p: FileProblem, whole = 'file'): string {
  if (p.line === null) return `${p.field ?? whole}: ${p.message}`;
  if (p.column === undefined) return `line ${p.line}${p.field ? `, ${p.field}` : ''}: ${p.message}`;
  return `line ${p.line}${p.column !== null ? `, column ${p.column}${p.field ? ` (${p.field})` : ''}` : ''}: ${p.message}`;
}
