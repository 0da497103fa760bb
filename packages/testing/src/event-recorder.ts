import type { Engine, EventPayload } from '@cartwright/core';

/** An event as in-process subscribers see it: the webhook payload plus the mode. */
export type RecordedEvent = EventPayload & { mode: 'test' | 'live' };

/** Every event the engine published, in order, for assertions. */
export interface EventRecorder {
  /** All recorded events, or those of one type (`'order.created'`). */
  list(type?: string): RecordedEvent[];
  /** The types in order, handy for `expect(t.events.types()).toEqual([...])`. */
  types(): string[];
  /** The last event of a type, if any. */
  last(type: string): RecordedEvent | undefined;
  /** Forgets what was recorded so far. */
  clear(): void;
  /** Stops recording. */
  stop(): void;
}

/**
 * Records every event after its transaction commits (the engine's in-process bus, the same
 * events that are written to the outbox for webhooks).
 */
export function recordEvents(engine: Engine): EventRecorder {
  let events: RecordedEvent[] = [];
  const stop = engine.events.on('*', (event) => {
    events.push(event);
  });
  return {
    list: (type) => (type === undefined ? [...events] : events.filter((e) => e.type === type)),
    types: () => events.map((e) => e.type),
    last: (type) => events.findLast((e) => e.type === type),
    clear: () => {
      events = [];
    },
    stop: () => {
      stop();
    },
  };
}
