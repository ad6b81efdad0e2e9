/**
 * Trace events: what both engines report as a request walks the machine,
 * for the inspector and for debug logs. Nothing is built unless someone
 * listens (`Tracer.active`).
 */

export type TraceEvent =
  | { readonly kind: 'request'; readonly id: string; readonly machine: string; readonly method: string; readonly path: string; readonly transport: string; readonly t: number }
  | { readonly kind: 'state'; readonly id: string; readonly state: string; readonly t: number }
  | { readonly kind: 'transition'; readonly id: string; readonly from: string; readonly to: string; readonly event: string; readonly guard: string | null; readonly t: number }
  | { readonly kind: 'done'; readonly id: string; readonly status: number; readonly ms: number; readonly t: number };

export type TraceListener = (event: TraceEvent) => void;

/** Fans trace events out to listeners; `active` is false (and costs nothing to check) when there are none. */
export class Tracer {
  #listeners: TraceListener[] = [];
  active = false;

  listen(listener: TraceListener): () => void {
    this.#listeners.push(listener);
    this.active = true;
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
      this.active = this.#listeners.length > 0;
    };
  }

  emit(event: TraceEvent): void {
    for (const l of this.#listeners) {
      try {
        l(event);
      } catch {
        // A broken listener must not break the request it watches.
      }
    }
  }
}

/** How a transition's event reads in a trace: eventless transitions read `always`. */
export function eventLabel(eventType: string): string {
  return eventType === '' ? 'always' : eventType;
}
