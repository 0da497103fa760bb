import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_DIR } from '../lib/results';
import type { CpuProfile } from './cpu-profile';

export interface HotSpot {
  /** `functionName (file:line)`, file relative to the repository or `pkg@ver/…`. */
  name: string;
  /** The file or package it belongs to. */
  where: string;
  self_ms: number;
  self_pct: number;
  total_ms: number;
  total_pct: number;
}

export interface ProfileSummary {
  /** Sampled time, including idle. */
  wall_ms: number;
  /** Time not idle (JS, GC, native). */
  busy_ms: number;
  idle_ms: number;
  gc_ms: number;
  /** Top functions by self time (percentages of busy time). */
  functions: HotSpot[];
  /** Top functions by total (inclusive) time, our code and libraries only (no Node internals). */
  inclusive: HotSpot[];
  /** Top files/packages by self time. */
  places: Array<{ where: string; self_ms: number; self_pct: number }>;
}

const SPECIAL = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

/** `packages/core/src/x.ts`, `kysely/dist/esm/…` or `node:internal/…`. */
function placeOf(url: string): string {
  if (url === '') return '(native)';
  if (url.startsWith('node:')) return url;
  let path = url;
  try {
    if (url.startsWith('file:')) path = fileURLToPath(url);
  } catch {
    return url;
  }
  const pnpm = path.lastIndexOf('/node_modules/');
  if (pnpm !== -1) return path.slice(pnpm + '/node_modules/'.length);
  return relative(REPO_DIR, path);
}

/** Package-level grouping of a place: `@cartwright/core`-like folders and npm packages. */
function groupOf(place: string): string {
  if (place.startsWith('packages/')) return place.split('/').slice(0, 2).join('/');
  if (place.startsWith('node:')) return place.startsWith('node:internal') ? 'node:internal' : place;
  if (place.startsWith('(')) return place;
  const parts = place.split('/');
  return place.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? place);
}

/**
 * Self and total (inclusive) time per function of a profile, from the sample timestamps (each
 * sample is charged the time until the next one). Total time counts a function once per stack,
 * so recursion is not double-counted.
 */
export function summarize(data: CpuProfile, top = 25): ProfileSummary {
  const byId = new Map(data.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of data.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const selfByNode = new Map<number, number>();
  for (let i = 0; i < data.samples.length; i++) {
    const delta = (data.timeDeltas[i + 1] ?? 0) / 1000;
    const id = data.samples[i] as number;
    selfByNode.set(id, (selfByNode.get(id) ?? 0) + delta);
  }
  const keyOf = (id: number) => {
    const frame = (byId.get(id) as CpuProfile['nodes'][number]).callFrame;
    const place = placeOf(frame.url);
    return {
      key: `${frame.functionName || '(anonymous)'} (${place}:${frame.lineNumber + 1})`,
      place,
      fn: frame.functionName,
    };
  };
  const self = new Map<string, { ms: number; where: string }>();
  const total = new Map<string, number>();
  const places = new Map<string, number>();
  let wall = 0;
  let idle = 0;
  let gc = 0;
  for (const [id, ms] of selfByNode) {
    wall += ms;
    const { key, place, fn } = keyOf(id);
    if (fn === '(idle)') {
      idle += ms;
      continue;
    }
    if (fn === '(garbage collector)') gc += ms;
    const entry = self.get(key) ?? { ms: 0, where: SPECIAL.has(fn) ? fn : place };
    entry.ms += ms;
    self.set(key, entry);
    const group = SPECIAL.has(fn) ? fn : groupOf(place);
    places.set(group, (places.get(group) ?? 0) + ms);
    const seen = new Set<string>();
    for (let node: number | undefined = id; node !== undefined; node = parent.get(node)) {
      const k = keyOf(node);
      if (k.fn === '(root)' || seen.has(k.key)) continue;
      seen.add(k.key);
      total.set(k.key, (total.get(k.key) ?? 0) + ms);
    }
  }
  const busy = wall - idle;
  const pct = (ms: number) => (busy > 0 ? (ms / busy) * 100 : 0);
  const spot = (name: string): HotSpot => {
    const entry = self.get(name);
    const totalMs = total.get(name) ?? entry?.ms ?? 0;
    return {
      name,
      where: entry?.where ?? name.slice(name.lastIndexOf('(') + 1, name.lastIndexOf(':')),
      self_ms: entry?.ms ?? 0,
      self_pct: pct(entry?.ms ?? 0),
      total_ms: totalMs,
      total_pct: pct(totalMs),
    };
  };
  const functions = [...self]
    .sort((a, b) => b[1].ms - a[1].ms)
    .slice(0, top)
    .map(([name]) => spot(name));
  const inclusive = [...total]
    .filter(([name]) => !name.includes('(node:') && !name.includes('(native'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name]) => spot(name));
  return {
    wall_ms: wall,
    busy_ms: busy,
    idle_ms: idle,
    gc_ms: gc,
    functions,
    inclusive,
    places: [...places]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 15)
      .map(([where, ms]) => ({ where, self_ms: ms, self_pct: pct(ms) })),
  };
}

export function printSummary(title: string, summary: ProfileSummary, rows = 20): void {
  console.log(
    `\n-- ${title}: ${summary.busy_ms.toFixed(0)} ms busy of ${summary.wall_ms.toFixed(0)} ms sampled (gc ${summary.gc_ms.toFixed(0)} ms)`,
  );
  console.log('   self%  total%  function');
  for (const spot of summary.functions.slice(0, rows)) {
    console.log(
      `   ${spot.self_pct.toFixed(1).padStart(5)}  ${spot.total_pct.toFixed(1).padStart(6)}  ${spot.name}`,
    );
  }
  console.log('   by total (inclusive) time:');
  for (const spot of summary.inclusive.slice(0, rows)) {
    console.log(
      `   ${spot.self_pct.toFixed(1).padStart(5)}  ${spot.total_pct.toFixed(1).padStart(6)}  ${spot.name}`,
    );
  }
  console.log('   by place (self):');
  for (const place of summary.places.slice(0, 10)) {
    console.log(`   ${place.self_pct.toFixed(1).padStart(5)}  ${place.where}`);
  }
}
