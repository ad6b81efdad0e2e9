/**
 * A machine's definition as plain data: its states (nested ones under their
 * parent, initial and final ones marked, with entry/exit actions, invoked
 * actors, and the notes a drawing shows for them) and its transitions (event,
 * guard and action names, one edge per target). The inspector page lays this
 * out and draws it, and the exporters (machines/export.ts) print it; both
 * therefore show the definition itself, never a hand-drawn copy.
 *
 * It draws from the machine's table (machines/table.ts), read from XState's
 * resolved state nodes, so targets are already resolved (`#id`, `.child`,
 * siblings) and the invoke's done/error events carry the same type the
 * engines report in traces.
 *
 * @example
 *   machineGraph(requestMachine).states.map((s) => s.id)  // ['parsing', 'negotiating', ...]
 */
import type { AnyStateMachine } from 'xstate';
import { machineTable, type TableState } from './table.ts';

export type GraphStateType = 'atomic' | 'compound' | 'parallel' | 'final' | 'history';

/** How a transition is triggered. */
export type GraphTransitionKind = 'always' | 'done' | 'error' | 'after' | 'state-done' | 'event';

export interface GraphState {
  /** The path from the root, dot-joined (`parsing`; `outer.inner` when nested). */
  readonly id: string;
  /** The state's own key (`inner`); trace events name states by key. */
  readonly key: string;
  /** The parent state's id, or null at the top level. */
  readonly parent: string | null;
  readonly type: GraphStateType;
  /** The initial state of its parent (of the machine, at the top level). */
  readonly initial: boolean;
  readonly final: boolean;
  readonly entry: readonly string[];
  readonly exit: readonly string[];
  /** Actors the state invokes: the invocation's id and its `src` name. */
  readonly invoke: readonly { readonly id: string; readonly src: string }[];
  /** The lines a drawing shows under the state's name (`stateNotes`): worked out here so the page draws what the exporters print. */
  readonly notes: readonly string[];
  readonly description: string | null;
}

export interface GraphTransition {
  /** Unique in the graph: `<source>#<n>`, n counting the source's edges in definition order. */
  readonly id: string;
  readonly source: string;
  /** The target state's id; the source's own id for a targetless transition. */
  readonly target: string;
  /** The event type exactly as trace events report it (`always` for eventless transitions). */
  readonly event: string;
  readonly kind: GraphTransitionKind;
  /** How the event reads in a diagram: `always`, `done.invoke.parseRequest`, `after 500ms`, `SUBMIT`. */
  readonly label: string;
  readonly guard: string | null;
  readonly actions: readonly string[];
  /** A transition without target: it runs its actions and stays. */
  readonly targetless: boolean;
  /** Its rank among the source's transitions for the same event (guards are tried in this order). */
  readonly order: number;
}

export interface MachineGraph {
  readonly id: string;
  readonly title: string;
  readonly states: readonly GraphState[];
  readonly transitions: readonly GraphTransition[];
}

/** Reads an event type as a diagram label; invoke events name the actor they come from. */
function readEvent(eventType: string, source: TableState): { kind: GraphTransitionKind; label: string; event: string } {
  if (eventType === '') return { kind: 'always', label: 'always', event: 'always' };
  for (const [prefix, kind] of [['xstate.done.actor.', 'done'], ['xstate.error.actor.', 'error']] as const) {
    if (eventType.startsWith(prefix)) {
      const id = eventType.slice(prefix.length);
      const invoked = source.invoke.find((i) => i.id === id);
      return { kind, label: `${kind}.invoke.${invoked ? invoked.src.name : id}`, event: eventType };
    }
  }
  const after = /^xstate\.after\.([^.]+)\./.exec(eventType);
  if (after) return { kind: 'after', label: /^\d+$/.test(after[1]) ? `after ${after[1]}ms` : `after ${after[1]}`, event: eventType };
  if (eventType.startsWith('xstate.done.state.')) return { kind: 'state-done', label: `done.state.${source.key}`, event: eventType };
  return { kind: 'event', label: eventType, event: eventType };
}

/** The lines a state shows under its name: `entry / a`, `invoke src`, `exit / b`. */
export function stateNotes(s: Pick<GraphState, 'entry' | 'invoke' | 'exit'>): string[] {
  const notes: string[] = [];
  if (s.entry.length > 0) notes.push(`entry / ${s.entry.join(', ')}`);
  for (const i of s.invoke) notes.push(`invoke ${i.src}`);
  if (s.exit.length > 0) notes.push(`exit / ${s.exit.join(', ')}`);
  return notes;
}

/** Serialises `machine`'s definition (read once, machines/table.ts). `title` defaults to the machine's id. */
export function machineGraph(machine: AnyStateMachine, title?: string): MachineGraph {
  const table = machineTable(machine);
  const states: GraphState[] = [];
  const transitions: GraphTransition[] = [];
  for (const s of table.states) {
    const entry = s.entry.map((a) => a.name);
    const exit = s.exit.map((a) => a.name);
    const invoke = s.invoke.map((i) => ({ id: i.id, src: i.src.name }));
    states.push({
      id: s.id, key: s.key, parent: s.parent, type: s.type, initial: s.initial, final: s.type === 'final',
      entry, exit, invoke, notes: stateNotes({ entry, invoke, exit }), description: s.description,
    });
    let n = 0;
    for (const i of s.transitions) {
      const t = table.transitions[i];
      const { kind, label, event } = readEvent(t.eventType, s);
      for (const target of t.targets.length > 0 ? t.targets : [s.id]) {
        transitions.push({
          id: `${s.id}#${n++}`, source: s.id, target, event, kind, label,
          guard: t.guard?.name ?? null, actions: t.actions.map((a) => a.name), targetless: t.targets.length === 0, order: t.order,
        });
      }
    }
  }
  return { id: machine.id, title: title ?? machine.id, states, transitions };
}
