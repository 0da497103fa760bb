import {
  type ApiLogEntry,
  type ApiLogMode,
  type EngineApiLogs,
  loggedBody,
  loggedJsonText,
  shouldLogRequest,
} from '@cartwright/core';
import type { BodySource } from '../raw-http';

/**
 * API logs (decisions §23), off the request's path: the pipeline hands each finished request of
 * a resolved key to {@link ApiLogRecorder.add}, which only keeps the raw parts in memory. A flush,
 * at least every second (or as soon as {@link FLUSH_AT} wait), parses, redacts and cuts the
 * bodies (core's `loggedBody`) and writes the batch with one multi-row insert
 * (`engine.apiLogs.record`); at most once an hour it also prunes the logs older than 30 days
 * (`engine.apiLogs.prune`). A failing flush is reported through `onError` and its batch dropped:
 * it never fails a request. A crash loses at most the last second of logs.
 */

/** A finished request as the pipeline hands it over: nothing parsed or copied yet. */
export interface FinishedRequest {
  store_id: string;
  mode: 'test' | 'live';
  api_key_id: string;
  method: string;
  /** The API path (`/v1/…`, without the mount prefix and the query string). */
  path: string;
  status_code: number;
  latency_ms: number;
  /** The request body as read (unparsed), or undefined when none was read. */
  request: BodySource | undefined;
  /** The JSON response text, or null (a text or byte response). */
  response: string | null;
  ip: string | null;
  user_agent: string | null;
  /** Epoch milliseconds when the request arrived. */
  created_at: number;
}

export interface ApiLogRecorderOptions {
  mode: ApiLogMode;
  /** The longest a logged request waits in memory. Default 1000 ms. */
  flushIntervalMs?: number;
  /** How often logs older than 30 days are pruned (on a flush). Default an hour. */
  pruneIntervalMs?: number;
  /** Called with a flush or prune failure (the batch is dropped). */
  onError(error: unknown): void;
}

export interface ApiLogRecorder {
  readonly mode: ApiLogMode;
  /** Buffers a finished request when the mode logs it. Synchronous and cheap. */
  add(request: FinishedRequest): void;
  /** Writes what is buffered now (and what an earlier flush still writes). Never rejects. */
  flush(): Promise<void>;
  /** Flushes, then stops: later requests are not logged. */
  close(): Promise<void>;
}

/** A batch this large is flushed at once, without waiting for the timer. */
export const FLUSH_AT = 500;
/** Beyond this many waiting (the database is down or slow), new requests are not logged. */
const MAX_BUFFERED = 20_000;
const USER_AGENT_MAX = 512;
const PATH_MAX = 2048;

/** The recorder for `engine`, or null when the mode is `off` or the engine keeps no API logs. */
export function createApiLogRecorder(
  logs: Partial<EngineApiLogs> | undefined,
  options: ApiLogRecorderOptions,
): ApiLogRecorder | null {
  if (options.mode === 'off' || typeof logs?.record !== 'function') return null;
  const sink = logs as EngineApiLogs;
  const mode = options.mode;
  const interval = options.flushIntervalMs ?? 1000;
  const pruneEvery = options.pruneIntervalMs ?? 3_600_000;
  let buffer: FinishedRequest[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  let writing: Promise<void> = Promise.resolve();
  let lastPrune = Number.NEGATIVE_INFINITY;
  let dropped = 0;
  let closed = false;

  const report = (error: unknown) => {
    try {
      options.onError(error);
    } catch {
      // A failing logger must not break the recorder.
    }
  };

  async function write(batch: FinishedRequest[]): Promise<void> {
    if (batch.length > 0) {
      try {
        await sink.record(batch.map(entryOf));
      } catch (error) {
        report(error);
      }
    }
    if (dropped > 0) {
      report(new Error(`${dropped} API log(s) dropped: too many waiting to be written`));
      dropped = 0;
    }
    const now = Date.now();
    if (typeof sink.prune === 'function' && now - lastPrune >= pruneEvery) {
      lastPrune = now;
      try {
        await sink.prune();
      } catch (error) {
        report(error);
      }
    }
  }

  function flush(): Promise<void> {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    const batch = buffer;
    buffer = [];
    // One flush at a time, in order.
    writing = writing.then(() => write(batch));
    return writing;
  }

  return {
    mode,
    add(request) {
      if (closed || !shouldLogRequest(mode, request.method, request.status_code)) return;
      if (buffer.length >= MAX_BUFFERED) {
        dropped++;
        return;
      }
      buffer.push(request);
      if (buffer.length >= FLUSH_AT) void flush();
      else if (timer === null) {
        timer = setTimeout(() => void flush(), interval);
        // Never keeps a process alive by itself: a host that exits without `close` loses the last second.
        timer.unref?.();
      }
    },
    flush,
    async close() {
      closed = true;
      await flush();
    },
  };
}

/** The stored entry of a finished request: bodies parsed, redacted and cut here, off the request's path. */
function entryOf(request: FinishedRequest): ApiLogEntry {
  return {
    store_id: request.store_id,
    mode: request.mode,
    method: request.method,
    path: request.path.length > PATH_MAX ? request.path.slice(0, PATH_MAX) : request.path,
    status_code: request.status_code,
    latency_ms: request.latency_ms,
    request_body: requestBodyOf(request.request),
    response_body: loggedJsonText(request.response, true),
    api_key_id: request.api_key_id,
    ip: request.ip,
    user_agent:
      request.user_agent === null || request.user_agent.length <= USER_AGENT_MAX
        ? request.user_agent
        : request.user_agent.slice(0, USER_AGENT_MAX),
    created_at: request.created_at,
  };
}

function requestBodyOf(source: BodySource | undefined): ApiLogEntry['request_body'] {
  if (source === undefined) return null;
  try {
    return source.kind === 'text' ? loggedJsonText(source.text, false) : loggedBody(source.value);
  } catch {
    return null;
  }
}
