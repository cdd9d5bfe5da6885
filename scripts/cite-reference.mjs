/**
 * Citations of documents in the code's comments: every one must name a document of this
 * repository (docs/reference.md#<anchor> for the exchange's rules, docs/choices.md by heading for
 * our own choices). The interface contract and the shared product decisions (`api.md`,
 * `decisions.md §N`) are not in the repository; this script rewrites their citations into
 * anchors of docs/reference.md, and can be run again after other branches merged:
 *
 *   node scripts/cite-reference.mjs           # rewrites the comments of src/, tests/, scripts/, bench/, public/
 *   node scripts/cite-reference.mjs --check   # counts, and exits 1 while a comment cites a document not here
 *
 * In src/ and public/ only comments are rewritten: a citation inside a string there is part of an
 * answer (an OpenAPI description) and changing it changes what the exchange answers; --check
 * counts those apart. Elsewhere (tests' names, scripts, benches) strings are rewritten too.
 * tests/platform/structure.test.ts runs the same check (outsideCitations).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(new URL('..', import.meta.url).pathname);
const DIRS = ['src', 'tests', 'scripts', 'bench', 'public'];
const CODE = /\.(ts|tsx|mts|mjs|js|css)$/;
/** The files that name the outside documents to rewrite or to test the rewrite: neither rewritten nor checked. */
const NAMING = new Set(['scripts/cite-reference.mjs', 'scripts/cite-reference.d.mts', 'tests/platform/structure.test.ts']);

/** The shared decisions' numbered sections -> the anchors of docs/reference.md. */
export const SECTION_ANCHORS = {
  1: 'running',
  2: 'admin-cli',
  3: 'accounts',
  4: 'freights',
  5: 'rate-search',
  6: 'preview',
  7: 'load-search',
  8: 'events',
  9: 'safety',
  10: 'api-description',
  11: 'vehicles',
  12: 'trust',
  13: 'deal-room',
  14: 'lane-prices',
  15: 'live-board',
  16: 'one-step',
  17: 'tenders',
  18: 'tracking',
  19: 'ecmr',
  20: 'mail',
};

/** The interface contract's headings (as the code cites them) -> the anchors of docs/reference.md; longest first. */
const API_ANCHORS = [
  ['What the service does', 'the-api'],
  ['Response envelope', 'envelope'],
  ['refs container keys', 'refs'],
  ['refs container', 'refs'],
  ['General conventions', 'conventions'],
  ['States and transitions', 'states'],
  ['Authentication', 'authentication'],
  ['Piece lines', 'pieces'],
  ['Piece line', 'pieces'],
  ['Rate search', 'rate-search'],
  ['Versioning', 'versioning'],
  ['Endpoints', 'conventions'],
  ['Freights', 'freights'],
  ['Freight', 'freight-fields'],
  ['Milk-run', 'preview'],
  ['Preview', 'preview'],
  ['Response', 'envelope'],
  ['Pricing', 'rate-search'],
  ['Errors', 'errors'],
  ['Limits', 'limits'],
  ['Events', 'events'],
  ['Quotes', 'bids'],
  ['States', 'states'],
  ['Bid', 'bids'],
  ['Limit', 'limits'],
  ['Error', 'errors'],
];

const REFERENCE = 'docs/reference.md';
const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One comment's text with its citations of the outside documents rewritten. */
export function rewriteComment(text) {
  let out = text.replace(/(?<![\w/.-])docs\/decisions\.md/g, 'docs/choices.md');
  // decisions.md §N (and the sections that follow it: "§11, §12", "§8 and §15", "§4/§16")
  out = out.replace(
    /(?<![\w/.-])decisions\.md,?(?: |\n\s*(?:\*|\/\/) )?§ ?(\d+)((?:(?:, and |, | and | or |\/| \/ |, ?)§ ?\d+)*)/g,
    (_, first, rest) => {
      const anchor = (n) => SECTION_ANCHORS[n] ?? `section-${n}`;
      return `${REFERENCE}#${anchor(first)}${rest.replace(/§ ?(\d+)/g, (__, n) => `#${anchor(n)}`)}`;
    },
  );
  // decisions.md, "Heading" (or Heading): the repository's own log, which had that name
  out = out.replace(/(?<![\w/.-])decisions\.md(,?(?: |\n\s*(?:\*|\/\/) ))(?=["(]?[A-Z])/g, 'docs/choices.md$1');
  // api.md, Heading / api.md's Heading / api.md "Heading …" / api.md (Heading)
  const headings = API_ANCHORS.map(([h]) => escapeRegExp(h)).join('|');
  out = out.replace(new RegExp(`(?<![\\w/.-])api\\.md(?:'s)?,? ?"?(${headings})\\b(?: (\\d+))?"?`, 'g'), (_, heading, item) => {
    const anchor = API_ANCHORS.find(([h]) => h === heading)[1];
    return `${REFERENCE}#${anchor}${item ? ` item ${item}` : ''}`;
  });
  out = out.replace(new RegExp(`(?<![\\w/.-])api\\.md \\((${headings})\\)`, 'g'), (_, heading) => {
    return `${REFERENCE}#${API_ANCHORS.find(([h]) => h === heading)[1]}`;
  });
  // any other citation of the contract: the reference's overview of it
  out = out.replace(/(?<![\w/.-])api\.md(?!#)/g, `${REFERENCE}#the-api`);
  out = out.replace(/(?<![\w/.-])decisions\.md(?!#)/g, `${REFERENCE}`);
  return out;
}

/**
 * [start, end) of every comment of a file. A scanner of its own (the typescript package here has
 * no parser API): strings, template literals (with their `${…}`) and regular expressions are
 * skipped; a quote or a regular expression ends at its line's end, so a stray apostrophe (JSX
 * text) cannot hide more than its line.
 */
export function commentRanges(file, text) {
  if (file.endsWith('.css')) return [...text.matchAll(/\/\*[\s\S]*?\*\//g)].map((m) => [m.index, m.index + m[0].length]);
  const out = [];
  const templates = []; // brace depth at each open `${`
  let depth = 0;
  let last = ''; // the last significant character or word, to tell a regular expression from a division
  let i = 0;
  const n = text.length;
  const regexMayStart = () =>
    last === '' || /[(,=:[!&|?{};+\-*%<>~^]$/.test(last) || /^(return|typeof|case|in|of|yield|await|void|delete|throw|else|do)$/.test(last);
  while (i < n) {
    const c = text[i];
    const d = text[i + 1];
    if (c === '/' && d === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? n : end;
      out.push([i, stop]);
      i = stop;
    } else if (c === '/' && d === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? n : end + 2;
      out.push([i, stop]);
      i = stop;
    } else if (c === "'" || c === '"') {
      i++;
      while (i < n && text[i] !== c && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
      i++;
      last = 'x';
    } else if (c === '`' || (c === '}' && templates.length && templates[templates.length - 1] === depth)) {
      if (c === '}') templates.pop();
      i++;
      let open = true;
      while (i < n && open) {
        if (text[i] === '\\') i += 2;
        else if (text[i] === '`') {
          open = false;
          i++;
        } else if (text[i] === '$' && text[i + 1] === '{') {
          templates.push(depth);
          i += 2;
          break;
        } else i++;
      }
      last = open ? '{' : 'x';
    } else if (c === '/' && regexMayStart()) {
      i++;
      let inClass = false;
      while (i < n && text[i] !== '\n' && (inClass || text[i] !== '/')) {
        if (text[i] === '\\') i++;
        else if (text[i] === '[') inClass = true;
        else if (text[i] === ']') inClass = false;
        i++;
      }
      i++;
      while (i < n && /[a-z]/.test(text[i])) i++;
      last = 'x';
    } else if (/\s/.test(c)) {
      i++;
    } else if (/[\w$]/.test(c)) {
      const m = /^[\w$]+/.exec(text.slice(i, i + 40));
      last = m[0];
      i += m[0].length;
    } else {
      if (c === '{') depth++;
      else if (c === '}') depth--;
      last = c;
      i++;
    }
  }
  return out;
}

/** The files whose comments are read: tracked and untracked-but-not-ignored code below DIRS. */
export function codeFiles(root = ROOT) {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', ...DIRS], {
    cwd: root,
    encoding: 'utf8',
  });
  return listed
    .split('\n')
    .filter((f) => CODE.test(f) && !NAMING.has(f) && fs.existsSync(path.join(root, f)))
    .sort();
}

const DOCUMENT = /(?<![\w/.-])((?:[\w.-]+\/)*[\w-]+\.md)(#[\w-]+)?/g;

/** The anchors of a Markdown document: `<a id="…">` and its headings' GitHub slugs. */
export function anchorsOf(markdown) {
  const ids = new Set([...markdown.matchAll(/<a id="([\w-]+)"><\/a>/g)].map((m) => m[1]));
  for (const m of markdown.matchAll(/^#+ (.+)$/gm))
    ids.add(
      m[1]
        .toLowerCase()
        .replace(/[^\w\- ]/g, '')
        .replace(/ /g, '-'),
    );
  return ids;
}

/**
 * Every citation of a document in the code: `where` (file:line), the document as written, whether it is in
 * a comment, and what is wrong with it (null: a document of the repository, with the anchor it names).
 */
export function citations(root = ROOT) {
  const anchors = new Map();
  const resolve = (file, doc) => {
    for (const candidate of [doc, path.join('docs', doc), path.join(path.dirname(file), doc)]) {
      if (fs.existsSync(path.join(root, candidate)) && candidate.endsWith('.md')) return path.normalize(candidate);
    }
    return null;
  };
  const out = [];
  for (const file of codeFiles(root)) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    if (!/\.md\b/.test(text)) continue;
    const comments = commentRanges(file, text);
    const inComment = (i) => comments.some(([a, b]) => a <= i && i < b);
    for (const m of text.matchAll(DOCUMENT)) {
      const [whole, doc, anchor] = m;
      const found = resolve(file, doc);
      let problem = found ? null : 'not in the repository';
      if (found && anchor) {
        if (!anchors.has(found)) anchors.set(found, anchorsOf(fs.readFileSync(path.join(root, found), 'utf8')));
        if (!anchors.get(found).has(anchor.slice(1))) problem = `no anchor ${anchor} in ${found}`;
      }
      const line = text.slice(0, m.index).split('\n').length;
      out.push({ where: `${file}:${line}`, cite: whole, comment: inComment(m.index), problem });
    }
  }
  return out;
}

/** Whether a file's strings may be answers of the exchange (src/, public/): their citations stay as they are. */
const answering = (file) => file.startsWith('src/') || file.startsWith('public/');

/**
 * The citations that name a document or an anchor the repository does not have: in any comment, and in
 * the strings of the tests, scripts and benches (a string of src/ or public/ may be an answer).
 */
export const outsideCitations = (root = ROOT) => citations(root).filter((c) => c.problem && (c.comment || !answering(c.where)));

function rewriteAll(root = ROOT) {
  let files = 0;
  let changed = 0;
  for (const file of codeFiles(root)) {
    const full = path.join(root, file);
    const text = fs.readFileSync(full, 'utf8');
    if (!/(api|decisions)\.md/.test(text)) continue;
    let out = '';
    let at = 0;
    // What src/ and public/ serve is an answer; elsewhere (tests, scripts, benches) a string is the code's own text.
    const ranges = answering(file) ? commentRanges(file, text) : [[0, text.length]];
    for (const [a, b] of ranges) {
      const before = text.slice(a, b);
      const after = rewriteComment(before);
      if (after !== before) changed++;
      out += text.slice(at, a) + after;
      at = b;
    }
    out += text.slice(at);
    if (out !== text) {
      fs.writeFileSync(full, out);
      files++;
    }
  }
  return { files, changed };
}

function report(root = ROOT) {
  const all = citations(root);
  const outside = (c) => /^(api|decisions)\.md/.test(c.cite) || c.problem;
  const count = (f) => all.filter(f).length;
  console.log(
    `citations of documents in comments: ${count((c) => c.comment)}, of them outside the repository: ${count((c) => c.comment && outside(c))}`,
  );
  console.log(
    `citations inside strings (answers, kept as they are): ${count((c) => !c.comment)}, of them outside the repository: ${count((c) => !c.comment && outside(c))}`,
  );
  const bad = outsideCitations(root);
  for (const c of bad.slice(0, 30)) console.log(`  ${c.where}: ${c.cite}: ${c.problem}`);
  return bad.length;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--check')) process.exit(report() ? 1 : 0);
  const { files, changed } = rewriteAll();
  console.log(`${changed} comments rewritten in ${files} files`);
  report();
}
