/** A problem of a pushed file, named by line (1 = header) and field, for the 406 message. */
export interface FileProblem {
  line: number | null;
  field: string | null;
  message: string;
}

/** The pushed file cannot be used: answered 406, nothing stored. */
export class FileRefused extends Error {
  constructor(
    readonly problems: FileProblem[],
    readonly total = problems.length,
  ) {
    const shown = problems.slice(0, 5).map(describe).join('; ');
    super(`${shown}${total > 5 ? `; … and ${total - 5} more problems` : ''}`);
  }
}

function describe(p: FileProblem): string {
  const where = p.line === null ? (p.field ?? 'file') : `line ${p.line}${p.field ? `, ${p.field}` : ''}`;
  return `${where}: ${p.message}`;
}
