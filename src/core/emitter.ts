import { reportCallbackError } from './warn.js';

export type EventHandler<Payload> = (payload: Payload) => void;

/**
 * A tiny typed event emitter. `emit` walks a copy of the handler list, so a handler may
 * subscribe or unsubscribe (itself or others) while an event is being delivered without
 * skipping or repeating anyone. A throwing handler is reported and the rest still run.
 *
 * @example
 * const events = new Emitter<{ token: { delta: string } }>();
 * const stop = events.on('token', ({ delta }) => console.log(delta));
 * events.emit('token', { delta: 'Hi' });
 * stop();
 */
export class Emitter<EventMap extends object> {
  private readonly handlers = new Map<keyof EventMap, EventHandler<never>[]>();

  /** Subscribes; returns a function that unsubscribes. */
  on<Name extends keyof EventMap>(name: Name, handler: EventHandler<EventMap[Name]>): () => void {
    const list = this.handlers.get(name) ?? [];
    list.push(handler as EventHandler<never>);
    this.handlers.set(name, list);
    return () => this.off(name, handler);
  }

  /** Removes one subscription of `handler` (the most recent, if it was added twice). */
  off<Name extends keyof EventMap>(name: Name, handler: EventHandler<EventMap[Name]>): void {
    const list = this.handlers.get(name);
    if (!list) return;
    const index = list.lastIndexOf(handler as EventHandler<never>);
    if (index !== -1) list.splice(index, 1);
    if (list.length === 0) this.handlers.delete(name);
  }

  emit<Name extends keyof EventMap>(name: Name, payload: EventMap[Name]): void {
    const list = this.handlers.get(name);
    if (!list) return;
    for (const handler of [...list]) {
      try {
        (handler as EventHandler<EventMap[Name]>)(payload);
      } catch (error) {
        reportCallbackError(error);
      }
    }
  }

  /** Drops every subscription, e.g. when the owner is disposed. */
  clear(): void {
    this.handlers.clear();
  }
}
