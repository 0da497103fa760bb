import type { EventSink } from '../ports/event-sink';
import type { EventRecord } from '../ports/storage';
import { iso } from './wire/format';

/** The spec's event payload (decisions §14). */
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

type Listener = (event: EventPayload & { mode: 'test' | 'live' }) => void;

/**
 * In-process subscribers, called after commit (`engine.events.on('order.created', fn)`, or '*'
 * for every event). A throwing listener never affects the request or other listeners.
 */
export function createEventBus(onListenerError: (error: unknown) => void = () => undefined) {
  const listeners = new Map<string, Set<Listener>>();
  const sink: EventSink = {
    publish(events) {
      if (listeners.size === 0) return;
      for (const event of events) {
        const targets = [listeners.get(event.type), listeners.get('*')];
        for (const set of targets) {
          if (!set) continue;
          for (const listener of set) {
            try {
              listener({ ...eventToPayload(event), mode: event.mode });
            } catch (error) {
              onListenerError(error);
            }
          }
        }
      }
    },
  };
  return {
    sink,
    on(type: string, listener: Listener): () => void {
      let set = listeners.get(type);
      if (!set) {
        set = new Set();
        listeners.set(type, set);
      }
      set.add(listener);
      return () => set.delete(listener);
    },
  };
}
