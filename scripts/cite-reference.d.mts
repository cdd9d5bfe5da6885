/** Types of cite-reference.mjs (the structure test imports it). */
export interface Citation {
  /** file:line */
  where: string;
  /** the document as written, with its anchor */
  cite: string;
  /** in a comment (else in a string) */
  comment: boolean;
  /** what is wrong: null for a document of the repository with the anchor it names */
  problem: string | null;
}
export const SECTION_ANCHORS: Readonly<Record<number, string>>;
export function rewriteComment(text: string): string;
export function commentRanges(file: string, text: string): Array<[number, number]>;
export function codeFiles(root?: string): string[];
export function anchorsOf(markdown: string): Set<string>;
export function citations(root?: string): Citation[];
export function outsideCitations(root?: string): Citation[];
