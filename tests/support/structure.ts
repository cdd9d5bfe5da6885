import fs from 'node:fs';
import path from 'node:path';

/**
 * The module structure of src/ as data, for the structure test: which module imports which,
 * and which module's code names which table. A module is a directory of src/ (src/app.ts,
 * main.ts and admin.ts are the composition root, above every module).
 */
export const SRC = path.resolve(new URL('../../src', import.meta.url).pathname);

export interface SourceFile {
  file: string;
  module: string;
  text: string;
}

export function sourceFiles(dir = SRC): SourceFile[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    if (!/\.(ts|tsx)$/.test(e.name) || e.name.endsWith('.d.ts')) return [];
    const rel = path.relative(SRC, full);
    return [{ file: rel, module: rel.includes(path.sep) ? rel.split(path.sep)[0]! : '(root)', text: fs.readFileSync(full, 'utf8') }];
  });
}

/** Comments removed (imports and queries in comments are no dependencies). */
export function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/**
 * The source files a file imports (paths under src/). `values`: only imports that load code at
 * run time (not `import type`, not `import { type X }` alone); otherwise type imports too.
 */
function importedFiles(f: SourceFile, kind: 'values' | 'all'): string[] {
  const out: string[] = [];
  for (const m of code(f.text).matchAll(/(import|export)\s+(type\s+)?([^'";]*?)\s*from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g)) {
    const typeOnly =
      Boolean(m[2]) ||
      (m[3] !== undefined &&
        /^\{[^}]*\}$/.test(m[3].trim()) &&
        m[3]
          .replace(/[{}\s]/g, '')
          .split(',')
          .filter(Boolean)
          .every((n) => n.startsWith('type')));
    if (kind === 'values' && typeOnly) continue;
    const spec = (m[4] ?? m[5])!;
    out.push(path.relative(SRC, path.resolve(SRC, path.dirname(f.file), spec)));
  }
  return out;
}

/** Module -> module -> the files that import it (imports as importedFiles counts them). */
export function moduleImports(files: SourceFile[], kind: 'values' | 'all' = 'values'): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const f of files) {
    graph.set(f.module, graph.get(f.module) ?? new Map());
    for (const target of importedFiles(f, kind)) {
      const to = target.includes(path.sep) ? target.split(path.sep)[0]! : '(root)';
      if (to === f.module || to.startsWith('..')) continue;
      const edges = graph.get(f.module)!;
      edges.set(to, [...(edges.get(to) ?? []), f.file]);
    }
  }
  return graph;
}

/** File -> file -> [the importing file], for cycles() (inside modules as well as across them). */
export function fileImports(files: SourceFile[], kind: 'values' | 'all' = 'values'): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const f of files) {
    const edges = new Map<string, string[]>();
    for (const target of importedFiles(f, kind)) if (!target.startsWith('..')) edges.set(target, [f.file]);
    graph.set(f.file, edges);
  }
  return graph;
}

/** Groups of modules that import each other, directly or around a loop (Tarjan's SCC), largest first. */
export function cycles(graph: Map<string, Map<string, string[]>>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const on = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const groups: string[][] = [];
  const connect = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!idx.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) connect(v);
  return groups.sort((a, b) => b.length - a.length);
}

/** Table name -> owning module, from the modules' tables.ts (`name: SomethingTable;`). */
export function tableOwners(files: SourceFile[]): Map<string, string> {
  const owners = new Map<string, string>();
  for (const f of files.filter((x) => x.file.endsWith(`${path.sep}tables.ts`))) {
    const block = /export interface \w+Tables\s*\{([^}]*)\}/.exec(f.text)?.[1] ?? '';
    for (const m of block.matchAll(/^\s*(\w+):\s*\w+;/gm)) owners.set(m[1]!, f.module);
  }
  return owners;
}

/** Where a module's code names a table of another module: query builders and raw SQL. */
export function foreignTableUses(files: SourceFile[], owners: Map<string, string>): string[] {
  const uses: string[] = [];
  const names = [...owners.keys()].join('|');
  const builder = new RegExp(
    `(?:selectFrom|insertInto|updateTable|deleteFrom|innerJoin|leftJoin|rightJoin|with)\\(\\s*'(${names})(?:[ .'])`,
    'g',
  );
  const raw = new RegExp(`\\b(?:from|join|update|into)\\s+(${names})\\b(?!\\s*[:=(])`, 'gi');
  for (const f of files) {
    if (f.module === 'db') continue; // migrations and the schema aggregate speak of every table
    const text = code(f.text);
    const sqlParts = [...text.matchAll(/sql(?:<[^>]*>)?`([\s\S]*?)`/g)].map((m) => m[1]!).join('\n');
    const names = new Set([...text.matchAll(builder)].map((m) => m[1]!));
    for (const m of sqlParts.matchAll(raw)) names.add(m[1]!.toLowerCase());
    for (const table of names) {
      const owner = owners.get(table);
      if (owner && owner !== f.module) uses.push(`${f.file}: table ${table} (owned by ${owner})`);
    }
  }
  return uses.sort();
}

/** The tables the migrations leave in the database: created, and not dropped later, by their `up` steps. */
export function migrationTables(files: SourceFile[]): Set<string> {
  const tables = new Set<string>();
  const migrations = files
    .filter((f) => f.file.startsWith(`db${path.sep}migrations${path.sep}`))
    .sort((a, b) => a.file.localeCompare(b.file));
  for (const f of migrations) {
    const text = code(f.text).split(/export\s+async\s+function\s+down\b/)[0]!;
    for (const m of text.matchAll(/createTable\(\s*'(\w+)'|create\s+table\s+(?:if\s+not\s+exists\s+)?(\w+)/gi))
      tables.add((m[1] ?? m[2])!.toLowerCase());
    for (const m of text.matchAll(/dropTable\(\s*'(\w+)'|drop\s+table\s+(?:if\s+exists\s+)?(\w+)/gi))
      tables.delete((m[1] ?? m[2])!.toLowerCase());
  }
  return tables;
}

/** Where a module imports another module's tables.ts (the table types are the owner's). */
export function foreignTableTypeImports(files: SourceFile[], except: readonly string[] = []): string[] {
  const uses: string[] = [];
  for (const f of files) {
    if (except.includes(f.file)) continue;
    for (const m of code(f.text).matchAll(/from\s+'(\.[^']*\/tables\.ts)'/g)) {
      const target = path.relative(SRC, path.resolve(SRC, path.dirname(f.file), m[1]!));
      const owner = target.includes(path.sep) ? target.split(path.sep)[0]! : '(root)';
      if (owner !== f.module) uses.push(`${f.file}: imports ${target}`);
    }
  }
  return uses.sort();
}

/** Whether the file's code changes what `name` holds: a collection's or array's mutators, or an assignment into it. */
function mutates(text: string, name: string): boolean {
  const n = name.replace(/\$/g, '\\$');
  return new RegExp(
    [
      `\\b${n}\\.(?:set|add|delete|clear|push|pop|shift|unshift|splice|sort|reverse|fill|copyWithin)\\(`,
      `\\b${n}(?:\\[[^\\]\\n]*\\]|\\.\\w+)\\s*(?:[-+*/|&?]{0,2})=(?!=)`,
      `\\bdelete\\s+${n}\\b`,
      `\\bObject\\.assign\\(\\s*${n}\\b`,
    ].join('|'),
  ).test(text);
}

/**
 * Module-level state, as `file name` entries (the structure test allows only caches it names
 * with a reason): a `let` or `var` at the top of a file; a collection (`new Map`, `Set`,
 * `WeakMap`, `WeakSet`) under a variable's name; and under a constant's name (UPPER_CASE), or an
 * array or object literal under any name, once the file changes it (`push`, `set`, an assignment
 * into it): a table filled once and never touched again is a constant, one that changes is state.
 */
export function moduleState(files: SourceFile[]): string[] {
  const found: string[] = [];
  for (const f of files) {
    const text = code(f.text);
    const names = new Set<string>();
    for (const m of text.matchAll(/^(?:export )?(?:let|var) (\w+)/gm)) names.add(m[1]!);
    for (const m of text.matchAll(/^(?:export )?const (\w+)(?:: [^=]+)? = (new (?:Map|Set|WeakMap|WeakSet)\b|\[|\{)/gm)) {
      const name = m[1]!;
      const constant = /^[A-Z][A-Z0-9_]*$/.test(name);
      if ((m[2]!.startsWith('new') && !constant) || mutates(text, name)) names.add(name);
    }
    for (const name of names) found.push(`${f.file.split(path.sep).join('/')} ${name}`);
  }
  return found;
}
