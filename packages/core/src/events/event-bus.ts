import type { EventSink } from '../ports/event-sink';
import type { EventRecord } from '../ports/storage';
import { iso } from '../shared/wire-format';
import type { EngineEvent, EngineEventListener, EngineEvents } from './event-data';

/**
 * The spec's event payload (docs/contract.md#events) as read back from the outbox, where `type` and `data`
 * are untyped storage values (the webhook delivery body). In process, listeners get the typed
 * {@link EngineEvent}.
 */
export interface EventPayload {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
  store_id: string;
}

export function eventToPayload(event: EventRecord): EventPayload {
  return {
    id: event.id,
    type: event.type,
    created_at: iso(event.created_at),
    data: event.data,
    store_id: event.store_id,
  };
}

/**
 * The event as listeners see it. The records come straight from `Work.emit` in this process,
 * whose type and data are checked against `EventDataMap` at compile time.
 */
function toEngineEvent(event: EventRecord): EngineEvent {
  return { ...eventToPayload(event), mode: event.mode } as EngineEvent;
}

/**
 * In-process subscribers, called after commit (`engine.events.on('order.created', fn)`, or '*'
 * for every event). A throwing listener never affects the request or other listeners.
 */
export function createEventBus(onListenerError: (error: unknown) => void = () => undefined) {
  const listeners = new Map<string, Set<EngineEventListener>>();
  const sink: EventSink = {
    publish(events) {
      if (listeners.size === 0) return;
      for (const event of events) {
        const targets = [listeners.get(event.type), listeners.get('*')];
        for (const set of targets) {
          if (!set) continue;
          for (const listener of set) {
            try {
              listener(toEngineEvent(event));
            } catch (error) {
              onListenerError(error);
            }
          }
        }
      }
    },
  };
  const on: EngineEvents['on'] = (type: string, listener: EngineEventListener) => {
    let set = listeners.get(type);
    if (!set) {
      set = new Set();
      listeners.set(type, set);
    }
    set.add(listener);
    return () => set.delete(listener);
  };
  return { sink, on };
}
