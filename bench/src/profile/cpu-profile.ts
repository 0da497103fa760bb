import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { inlineSourceLines, type SourceLines, sourcePositionOf } from './source-lines';

/** The V8 `.cpuprofile` format (what `node --cpu-prof` writes and DevTools opens). */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: {
      functionName: string;
      scriptId: string;
      url: string;
      lineNumber: number;
      columnNumber: number;
    };
    children?: number[];
  }>;
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/**
 * Profiles `body` with V8's sampling CPU profiler through `node:inspector` — the profiler
 * `node --cpu-prof` drives — limited to the measured window (no start-up, seeding or cart
 * preparation in the profile). Samples every 200 µs.
 */
export async function profile<T>(body: () => Promise<T>): Promise<{ result: T; profile: CpuProfile }> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
    const result = await body();
    const { profile: data } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
    await remapToSource(session, data);
    return { result, profile: data };
  } finally {
    session.disconnect();
  }
}

/** Starts profiling this process until the returned function is called (for the server process). */
export async function startProfiling(): Promise<() => Promise<CpuProfile>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return async () => {
    const { profile: data } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
    await remapToSource(session, data);
    session.disconnect();
    return data;
  };
}

/**
 * Rewrites the positions of frames in code compiled by esbuild (tsx's per-file output, or the
 * bench's server bundle) to their TypeScript source file and line, using each script's inline
 * source map (see source-lines.ts).
 */
async function remapToSource(session: Session, data: CpuProfile): Promise<void> {
  await session.post('Debugger.enable');
  try {
    const maps = new Map<string, SourceLines | null>();
    for (const node of data.nodes) {
      const frame = node.callFrame;
      if (!/\.(tsx?|mjs)$/.test(frame.url) || !frame.url.startsWith('file:') || frame.lineNumber < 0)
        continue;
      if (!maps.has(frame.scriptId)) {
        try {
          const { scriptSource } = (await session.post('Debugger.getScriptSource', {
            scriptId: frame.scriptId,
          })) as {
            scriptSource: string;
          };
          maps.set(frame.scriptId, inlineSourceLines(scriptSource));
        } catch {
          maps.set(frame.scriptId, null);
        }
      }
      const map = maps.get(frame.scriptId);
      const position = map ? sourcePositionOf(map, frame.lineNumber, frame.columnNumber) : null;
      if (position === null) continue;
      frame.lineNumber = position.line;
      if (position.source !== null && map && map.sources.length > 1) {
        const base = dirname(fileURLToPath(frame.url));
        frame.url = pathToFileURL(resolve(base, position.source)).href;
      }
    }
  } finally {
    await session.post('Debugger.disable');
  }
}

export function saveProfile(file: string, data: CpuProfile): void {
  writeFileSync(file, JSON.stringify(data));
}
