/** Markdown table helpers. */

/** A Markdown table: the first column (or those listed in `left`) left-aligned, others right. */
export function table(header: string[], rows: Array<Array<string | number>>, left: number[] = [0]): string {
  const line = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
  const align = header.map((_, i) => (left.includes(i) ? '---' : '---:'));
  return [line(header), line(align), ...rows.map(line)].join('\n');
}

export function num(value: number, decimals = 0): string {
  if (!Number.isFinite(value)) return '–';
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

export function msCell(value: number): string {
  return Number.isFinite(value) ? value.toFixed(2) : '–';
}

export function mibCell(bytes: number): string {
  return Number.isFinite(bytes) ? (bytes / 1024 / 1024).toFixed(1) : '–';
}

export function pct(value: number): string {
  return Number.isFinite(value) ? `${(value * 100).toFixed(1)} %` : '–';
}

/** ✅ / ❌ for a target. */
export function verdict(ok: boolean | null): string {
  if (ok === null) return 'not measured';
  return ok ? '✅ met' : '❌ not met';
}
