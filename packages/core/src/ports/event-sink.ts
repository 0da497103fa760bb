import type { EventRecord } from './storage';

/**
 * In-process subscribers (`engine.events.on('order.created', …)`), called after the transaction
 * that wrote the events commits — never for a change that rolled back. Durable delivery to
 * webhooks goes through the outbox, not through this sink.
 */
export interface EventSink {
  publish(events: readonly EventRecord[]): void;
}
