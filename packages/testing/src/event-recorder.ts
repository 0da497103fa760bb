import type { Engine, EngineEvent, EventType } from '@cartwright/core';

/**
 * An event as in-process subscribers see it: the webhook payload plus the mode, with `data`
 * typed by its event type (`RecordedEvent<'order.created'>` has `data: Order`).
 */
export type RecordedEvent<K extends EventType = EventType> = EngineEvent<K>;

/** Every event the engine published, in order, for assertions. */
export interface EventRecorder {
  /** All recorded events (a union discriminated by `type`). */
  list(): RecordedEvent[];
  /** Those of one type (`'order.created'`), with their `data` typed. */
  list<K extends EventType>(type: K): RecordedEvent<K>[];
  /** The types in order, handy for `expect(t.events.types()).toEqual([...])`. */
  types(): EventType[];
  /** The last event of a type, if any. */
  last<K extends EventType>(type: K): RecordedEvent<K> | undefined;
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
  const ofType = <K extends EventType>(type: K) =>
    events.filter((e): e is RecordedEvent<K> => e.type === type);
  return {
    list: ((type?: EventType) => (type === undefined ? [...events] : ofType(type))) as EventRecorder['list'],
    types: () => events.map((e) => e.type),
    last: (type) => ofType(type).at(-1),
    clear: () => {
      events = [];
    },
    stop: () => {
      stop();
    },
  };
}
