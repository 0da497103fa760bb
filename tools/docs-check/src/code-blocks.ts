/** A fenced code block of a Markdown file. */
export interface CodeBlock {
  /** The Markdown file, as given to {@link extractCodeBlocks}. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The info string's first word, lowercased (`ts`, `sh`, `json`, …); `''` when there is none. */
  lang: string;
  /** The block's text (the fence's indentation removed), ending with a newline unless empty. */
  code: string;
  /**
   * Why the block is not checked, from a `<!-- docs-check: skip <reason> -->` comment on the
   * nearest non-blank line before the fence; `''` when the comment gives no reason.
   */
  skip?: string;
}

const FENCE = /^( {0,3})(`{3,}|~{3,})[ \t]*([^`\s]*)/;
const SKIP = /^ {0,3}<!--\s*docs-check:\s*skip\b\s*[-—:]?\s*(.*?)\s*-->\s*$/;

/**
 * The fenced code blocks of Markdown source, in order. A block closes at a fence of the same
 * character at least as long (or at the end of the file); the fence's indentation (a block in a
 * list item) is taken off each line of its content, as Markdown does.
 */
export function extractCodeBlocks(file: string, source: string): CodeBlock[] {
  const lines = source.split(/\r?\n/);
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i] as string);
    if (open === null) continue;
    const indent = (open[1] as string).length;
    const fence = open[2] as string;
    const start = i;
    const content: string[] = [];
    for (i++; i < lines.length; i++) {
      const line = lines[i] as string;
      const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line)?.[1];
      if (close !== undefined && close[0] === fence[0] && close.length >= fence.length) break;
      content.push(stripIndent(line, indent));
    }
    const block: CodeBlock = {
      file,
      line: start + 1,
      lang: (open[3] as string).toLowerCase(),
      code: content.length === 0 ? '' : `${content.join('\n')}\n`,
    };
    const skip = skipReason(lines, start);
    if (skip !== undefined) block.skip = skip;
    blocks.push(block);
  }
  return blocks;
}

/** The reason of a skip comment on the nearest non-blank line above line `index`, if there is one. */
function skipReason(lines: string[], index: number): string | undefined {
  for (let j = index - 1; j >= 0; j--) {
    const line = lines[j] as string;
    if (line.trim() === '') continue;
    return SKIP.exec(line)?.[1];
  }
  return undefined;
}

/** Removes up to `indent` leading spaces. */
function stripIndent(line: string, indent: number): string {
  let n = 0;
  while (n < indent && line[n] === ' ') n++;
  return line.slice(n);
}

/** Whether a block is TypeScript: its info string starts with `ts` or `typescript`. */
export function isTypeScript(block: CodeBlock): boolean {
  return block.lang === 'ts' || block.lang === 'typescript';
}
