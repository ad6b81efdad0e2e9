/**
 * `engine: 'xstate'`: each request is a real XState actor of the request
 * machine. Its inspection events are translated into the same trace events
 * the compiled engine emits, so the two are compared step for step.
 *
 * A microstep event says where the actor went and on which event; which
 * transition that was (its guard, for the trace) is read from the
 * machine's table. The first microstep an event causes is that event's
 * transition; the ones after it, on the same event object, are eventless.
 */
import { createActor, toPromise, type AnyStateMachine, type InspectionEvent } from 'xstate';
import { machineTable } from './table.ts';
import { eventLabel, type Tracer } from './trace.ts';

/** Runs `machine` on `input` as an actor; resolves with its output. */
export function runWithXState<TOutput>(machine: AnyStateMachine, input: unknown, tracer: Tracer | null, traceId: string): Promise<TOutput> {
  const tracing = tracer !== null && tracer.active;
  let root: unknown = null;
  let inspect: ((ev: InspectionEvent) => void) | undefined;
  if (tracing) {
    const table = machineTable(machine);
    let here = '';
    let seen: unknown = null;
    inspect = (ev: InspectionEvent) => {
      if (ev.actorRef !== root) return;
      if (ev.type === '@xstate.snapshot' && ev.event.type === 'xstate.init') {
        here = String((ev.snapshot as { value?: unknown }).value);
        tracer!.emit({ kind: 'state', id: traceId, state: here, t: performance.now() });
      } else if (ev.type === '@xstate.microstep') {
        const to = String((ev.snapshot as { value?: unknown }).value);
        const first = ev.event !== seen;
        seen = ev.event;
        const eventType = first && ev.event.type !== 'xstate.init' ? ev.event.type : null;
        const t = table.taken(here, to, eventType);
        // A microstep that took no transition (the actor stopping, or failing on an error nothing handles) is no step.
        if (t === null && to === here) return;
        tracer!.emit({ kind: 'transition', id: traceId, from: here, to, event: eventLabel(t?.eventType ?? eventType ?? ''), guard: t?.guard?.name ?? null, t: performance.now() });
        tracer!.emit({ kind: 'state', id: traceId, state: to, t: performance.now() });
        here = to;
      }
    };
  }
  const actor = createActor(machine, { input, ...(inspect ? { inspect } : {}) });
  root = actor;
  const done = toPromise(actor) as Promise<TOutput>;
  actor.start();
  return done;
}
