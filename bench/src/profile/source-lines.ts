/**
 * Maps positions in code compiled by tsx back to the TypeScript source, so profiles name
 * `format.ts:42` instead of `format.ts:1` (tsx/esbuild output puts many statements on one line,
 * and V8's profiler reports generated positions). Reads the inline source map of a script's
 * generated source (`//# sourceMappingURL=data:application/json;base64,…`) and decodes its
 * `mappings` (base64 VLQ) — a small decoder of our own rather than a new dependency.
 */
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((char, index) => [char, index]));

/** For each generated line: ascending [generatedColumn, sourceIndex, sourceLine] (0-based). */
export type LineMap = Array<Array<[number, number, number]>>;

/** A decoded inline source map: its sources (as written in the map) and the line tables. */
export interface SourceLines {
  sources: string[];
  lines: LineMap;
}

function decodeSegment(segment: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = DIGIT.get(char) ?? 0;
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

/** Decodes a source map's `mappings` into generated-column → source-line tables. */
export function decodeMappings(mappings: string): LineMap {
  const lines: LineMap = [];
  let sourceIndex = 0;
  let sourceLine = 0;
  for (const line of mappings.split(';')) {
    let column = 0;
    const entries: Array<[number, number, number]> = [];
    for (const segment of line.split(',')) {
      if (segment === '') continue;
      const values = decodeSegment(segment);
      column += values[0] ?? 0;
      if (values.length >= 4) {
        sourceIndex += values[1] ?? 0;
        sourceLine += values[2] ?? 0;
        entries.push([column, sourceIndex, sourceLine]);
      }
    }
    lines.push(entries);
  }
  return lines;
}

/** The inline source map of a generated script, decoded; null when it has none. */
export function inlineSourceLines(source: string): SourceLines | null {
  const match = /\/\/# sourceMappingURL=data:application\/json[^,]*;base64,([A-Za-z0-9+/=]+)\s*$/.exec(
    source,
  );
  if (!match?.[1]) return null;
  try {
    const map = JSON.parse(Buffer.from(match[1], 'base64').toString('utf8')) as {
      mappings?: string;
      sources?: string[];
    };
    if (typeof map.mappings !== 'string') return null;
    return { sources: map.sources ?? [], lines: decodeMappings(map.mappings) };
  } catch {
    return null;
  }
}

/** The source (as named in the map) and line (0-based) of a generated position, or null. */
export function sourcePositionOf(
  map: SourceLines,
  line: number,
  column: number,
): { source: string | null; line: number } | null {
  const entries = map.lines[line];
  if (!entries || entries.length === 0) return null;
  let found = entries[0] as [number, number, number];
  for (const entry of entries) {
    if (entry[0] > column) break;
    found = entry;
  }
  return { source: map.sources[found[1]] ?? null, line: found[2] };
}
