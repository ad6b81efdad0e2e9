/**
 * A machine's definition read once into a frozen, indexed table: its states
 * (with their parent, type, entry and exit actions and invoked actors) and
 * its transitions (source, targets, event, guard and actions), in the order
 * XState tries them. Everything that needs the definition reads it here:
 * the compiled engine binds `setup()`'s implementations to it
 * (compile.ts), the diagrams and the inspector draw it (graph.ts,
 * export.ts), the XState engine names the transitions its actors take from
 * it (engine-xstate.ts), and the model-based tests enumerate it.
 *
 * It reads XState's public surface only: the resolved state nodes
 * (`machine.root`, each node's `states`, `transitions`, `always`, `invoke`,
 * `config`), so targets arrive resolved (`#id`, `.child`, siblings) and
 * event types are the ones XState itself reports (`xstate.done.actor.<id>`).
 *
 * @example
 *   machineTable(requestMachine).states.map((s) => s.id)  // ['servingPublic', 'parsing', ...]
 */
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';

export type TableStateType = 'atomic' | 'compound' | 'parallel' | 'final' | 'history';

/** An action, guard or actor as the definition gives it. */
export interface Named {
  /** The name `setup()` supplies it under; for an inline one, its `type` or function name, else a placeholder. */
  readonly name: string;
  /** Given inline (a function, logic, a built-in action) or with `params`, rather than by its name alone. */
  readonly inline: boolean;
}

export interface TableInvoke {
  readonly id: string;
  readonly src: Named;
  /** The invocation's `input`: a function of `{ context, event }`, or a value. */
  readonly input: unknown;
  readonly systemId: string | null;
}

export interface TableState {
  /** The path from the root, dot-joined (`parsing`; `outer.inner` when nested). */
  readonly id: string;
  /** The state's own key; trace events name states by key. */
  readonly key: string;
  readonly parent: string | null;
  readonly type: TableStateType;
  /** The initial state of its parent (of the machine, at the top level). */
  readonly initial: boolean;
  /** From the config, as written: the resolved node adds the raise and cancel actions that implement `after`. */
  readonly entry: readonly Named[];
  readonly exit: readonly Named[];
  readonly invoke: readonly TableInvoke[];
  readonly description: string | null;
  /** This state's transitions (indexes into the table's), each event's in the order XState tries them. */
  readonly transitions: readonly number[];
}

export interface TableTransition {
  /** The source state's id; `''` for a transition of the machine's root. */
  readonly source: string;
  /** Target state ids; none for a targetless transition. */
  readonly targets: readonly string[];
  /** As XState reports it: `''` for eventless (`always`), `xstate.done.actor.<id>`, `xstate.after.…`, or the event's type. */
  readonly eventType: string;
  readonly guard: Named | null;
  readonly actions: readonly Named[];
  /** Its rank among the source's transitions for the same event. */
  readonly order: number;
  readonly reenter: boolean;
}

export interface MachineTable {
  readonly id: string;
  readonly machine: AnyStateMachine;
  /** The root node itself, as a state with id `''` (a machine may be parallel, or act at its root). */
  readonly root: TableState;
  /** Every state below the root, parents before their children, in document order. */
  readonly states: readonly TableState[];
  readonly transitions: readonly TableTransition[];
  /** The state with this id, or undefined. */
  state(id: string): TableState | undefined;
  /**
   * The transition that took `from` to `to` on an event of `eventType`, or eventlessly when
   * `eventType` is null: the first one the definition lists (two that differ only by their guard
   * cannot be told apart from where they lead). Null when none does.
   */
  taken(from: string, to: string, eventType: string | null): TableTransition | null;
}

const tables = new WeakMap<AnyStateMachine, MachineTable>();

/** The table of `machine`, read on first use (definitions do not change at run time). */
export function machineTable(machine: AnyStateMachine): MachineTable {
  let table = tables.get(machine);
  if (table === undefined) tables.set(machine, (table = readTable(machine)));
  return table;
}

const idOf = (node: AnyStateNode): string => node.path.join('.');
const list = (value: unknown): readonly unknown[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** A guard's, action's or actor's name: the string given, the `type` of an object or built-in, else the function's name. */
function named(thing: unknown, fallback: string): Named {
  if (typeof thing === 'string') return Object.freeze({ name: thing, inline: false });
  let name = fallback;
  if (thing !== null && (typeof thing === 'object' || typeof thing === 'function')) {
    const type = (thing as { type?: unknown }).type;
    if (typeof type === 'string') name = type;
    else if (typeof thing === 'function' && thing.name !== '') name = thing.name;
  }
  return Object.freeze({ name, inline: true });
}

function readTable(machine: AnyStateMachine): MachineTable {
  const transitions: TableTransition[] = [];
  const states: TableState[] = [];

  const read = (node: AnyStateNode, parent: AnyStateNode | null): TableState => {
    const id = parent === null ? '' : idOf(node);
    const mine: number[] = [];
    const add = (definitions: readonly AnyTransitionDefinition[]): void => {
      definitions.forEach((t, order) => {
        mine.push(transitions.length);
        transitions.push(Object.freeze({
          source: id,
          targets: Object.freeze((t.target ?? []).map(idOf)),
          eventType: t.eventType,
          guard: t.guard === undefined ? null : guardOf(t.guard),
          actions: Object.freeze(t.actions.map((a) => named(a, 'inline action'))),
          order,
          reenter: t.reenter,
        }));
      });
    };
    for (const definitions of node.transitions.values()) add(definitions);
    if (node.always) add(node.always);
    const initialChild = parent?.initial?.target?.[0];
    return Object.freeze({
      id,
      key: node.key,
      parent: parent === null || parent.parent === undefined ? null : idOf(parent),
      type: node.type,
      initial: initialChild === node,
      entry: Object.freeze(list(node.config.entry).map((a) => named(a, 'inline action'))),
      exit: Object.freeze(list(node.config.exit).map((a) => named(a, 'inline action'))),
      invoke: Object.freeze(node.invoke.map((i) => Object.freeze({ id: i.id, src: named(i.src, 'inline actor'), input: i.input, systemId: i.systemId ?? null }))),
      description: node.description ?? null,
      transitions: Object.freeze(mine),
    });
  };

  const root = read(machine.root, null);
  const visit = (node: AnyStateNode): void => {
    for (const child of Object.values(node.states) as AnyStateNode[]) {
      states.push(read(child, node));
      visit(child);
    }
  };
  visit(machine.root);

  const byId = new Map(states.map((s) => [s.id, s]));
  Object.freeze(states);
  Object.freeze(transitions);
  return Object.freeze({
    id: machine.id,
    machine,
    root,
    states,
    transitions,
    state: (id: string) => byId.get(id),
    taken(from: string, to: string, eventType: string | null): TableTransition | null {
      const source = byId.get(from);
      if (source === undefined) return null;
      for (const i of source.transitions) {
        const t = transitions[i];
        if (t.eventType === (eventType ?? '') && (t.targets.length === 0 ? to === from : t.targets[0] === to)) return t;
      }
      return null;
    },
  });
}

function guardOf(guard: unknown): Named {
  const g = named(guard, 'inline guard');
  // `{ type: 'name' }` without params is a name all the same.
  if (typeof guard === 'object' && guard !== null && (guard as { params?: unknown }).params === undefined && typeof (guard as { type?: unknown }).type === 'string') {
    return Object.freeze({ name: g.name, inline: false });
  }
  return g;
}
