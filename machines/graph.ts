/**
 * A machine's definition as plain data: its states (nested ones under their
 * parent, initial and final ones marked, with entry/exit actions, invoked
 * actors, and the notes a drawing shows for them) and its transitions (event,
 * guard and action names, one edge per target). The inspector page lays this
 * out and draws it, and the exporters (machines/export.ts) print it; both
 * therefore show the definition itself, never a hand-drawn copy.
 *
 * It reads XState's resolved state nodes (`machine.root`), so targets are
 * already resolved (`#id`, `.child`, siblings) and the invoke's done/error
 * events carry the same type the engines report in traces.
 *
 * @example
 *   machineGraph(requestMachine).states.map((s) => s.id)  // ['parsing', 'negotiating', ...]
 */
import type { AnyStateMachine } from 'xstate';

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

/** What the serialiser reads of XState's StateNode (public fields, loosely typed). */
interface Node {
  readonly key: string;
  readonly path: readonly string[];
  readonly type: GraphStateType;
  readonly states: Record<string, Node>;
  readonly parent?: Node;
  readonly initial?: { readonly target?: readonly Node[] };
  readonly config: { readonly entry?: unknown; readonly exit?: unknown };
  readonly invoke: readonly { readonly id: string; readonly src: unknown }[];
  readonly transitions: ReadonlyMap<string, readonly Definition[]>;
  readonly always?: readonly Definition[];
  readonly description?: string;
}

interface Definition {
  readonly eventType: string;
  readonly target?: readonly Node[];
  readonly guard?: unknown;
  readonly actions: readonly unknown[];
}

const idOf = (node: Node): string => node.path.join('.');
const list = (value: unknown): readonly unknown[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** A guard's or action's name: the string given, the `type` of an object or built-in, else the function's name. */
function nameOf(thing: unknown, fallback: string): string {
  if (typeof thing === 'string') return thing;
  if (thing !== null && (typeof thing === 'object' || typeof thing === 'function')) {
    const type = (thing as { type?: unknown }).type;
    if (typeof type === 'string') return type;
  }
  if (typeof thing === 'function' && thing.name !== '') return thing.name;
  return fallback;
}

/** Reads an event type as a diagram label; invoke events name the actor they come from. */
function readEvent(eventType: string, source: Node): { kind: GraphTransitionKind; label: string; event: string } {
  if (eventType === '') return { kind: 'always', label: 'always', event: 'always' };
  for (const [prefix, kind] of [['xstate.done.actor.', 'done'], ['xstate.error.actor.', 'error']] as const) {
    if (eventType.startsWith(prefix)) {
      const id = eventType.slice(prefix.length);
      const invoked = source.invoke.find((i) => i.id === id);
      const name = invoked ? nameOf(invoked.src, id) : id;
      return { kind, label: `${kind}.invoke.${name}`, event: eventType };
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

/** Serialises `machine`'s definition. `title` defaults to the machine's id. */
export function machineGraph(machine: AnyStateMachine, title?: string): MachineGraph {
  const root = machine.root as unknown as Node;
  const states: GraphState[] = [];
  const transitions: GraphTransition[] = [];

  const visit = (node: Node): void => {
    const initialChild = node.initial?.target?.[0];
    for (const child of Object.values(node.states)) {
      const id = idOf(child);
      // From the config, as written: the resolved node adds the raise/cancel actions that implement `after`.
      const entry = list(child.config.entry).map((a) => nameOf(a, 'inline action'));
      const exit = list(child.config.exit).map((a) => nameOf(a, 'inline action'));
      const invoke = child.invoke.map((i) => ({ id: i.id, src: nameOf(i.src, 'inline actor') }));
      states.push({
        id,
        key: child.key,
        parent: node === root ? null : idOf(node),
        type: child.type,
        initial: initialChild === child,
        final: child.type === 'final',
        entry,
        exit,
        invoke,
        notes: stateNotes({ entry, invoke, exit }),
        description: child.description ?? null,
      });
      let n = 0;
      const add = (definitions: readonly Definition[]): void => {
        definitions.forEach((t, order) => {
          const { kind, label, event } = readEvent(t.eventType, child);
          const targets = t.target && t.target.length > 0 ? t.target.map(idOf) : [id];
          for (const target of targets) {
            transitions.push({
              id: `${id}#${n++}`,
              source: id,
              target,
              event,
              kind,
              label,
              guard: t.guard === undefined ? null : nameOf(t.guard, 'inline guard'),
              actions: t.actions.map((a) => nameOf(a, 'inline action')),
              targetless: !t.target || t.target.length === 0,
              order,
            });
          }
        });
      };
      for (const definitions of child.transitions.values()) add(definitions);
      if (child.always) add(child.always);
      visit(child);
    }
  };
  visit(root);
  return { id: machine.id, title: title ?? machine.id, states, transitions };
}
