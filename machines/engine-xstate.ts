/**
 * `engine: 'xstate'`: each request is a real XState actor of the request
 * machine. Its inspection events are translated into the same trace events
 * the compiled engine emits, so the two are compared step for step.
 */
import { createActor, toPromise, type AnyStateMachine, type InspectionEvent } from 'xstate';
import { eventLabel, type Tracer } from './trace.ts';

type TransitionDef = { source: { key: string }; target?: { key: string }[]; eventType: string; guard?: unknown };

/** Runs `machine` on `input` as an actor; resolves with its output. */
export function runWithXState<TOutput>(machine: AnyStateMachine, input: unknown, tracer: Tracer | null, traceId: string): Promise<TOutput> {
  const tracing = tracer !== null && tracer.active;
  let root: unknown = null;
  const inspect = tracing
    ? (ev: InspectionEvent) => {
      if (ev.actorRef !== root) return;
      if (ev.type === '@xstate.snapshot' && ev.event.type === 'xstate.init') {
        tracer!.emit({ kind: 'state', id: traceId, state: String((ev.snapshot as { value?: unknown }).value), t: performance.now() });
      } else if (ev.type === '@xstate.microstep') {
        for (const t of (ev as unknown as { _transitions: TransitionDef[] })._transitions) {
          const to = t.target?.[0]?.key ?? t.source.key;
          const guard = typeof t.guard === 'string' ? t.guard : ((t.guard as { type?: string } | undefined)?.type ?? null);
          tracer!.emit({ kind: 'transition', id: traceId, from: t.source.key, to, event: eventLabel(t.eventType), guard, t: performance.now() });
          tracer!.emit({ kind: 'state', id: traceId, state: to, t: performance.now() });
        }
      }
    }
    : undefined;
  const actor = createActor(machine, { input, ...(inspect ? { inspect } : {}) });
  root = actor;
  const done = toPromise(actor) as Promise<TOutput>;
  actor.start();
  return done;
}
