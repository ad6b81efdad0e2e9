/**
 * Internal to the model tests: a machine seen as a graph of states and
 * transitions, the paths through it, and how much of it a set of paths (or
 * a table of ingredients) covers. Works on any flat machine of the subset
 * the compiled engine runs (named guards, `always`, one invoke per state
 * with onDone/onError, final states), not only the request machine.
 *
 * How `xstate/graph` (v5) sees such a machine, and what is derived here:
 *
 * - `getSimplePaths` / `getShortestPaths` walk macrosteps. Their vertices are
 *   stable snapshots (a state waiting on an invoked actor, or a final state)
 *   and their edges are events. Eventless `always` transitions are taken
 *   inside a macrostep and never appear as edges: for the request machine
 *   the only vertices are `parsing`, `dispatching` and `done`.
 * - Invoked actors never run (traversal uses a mock actor scope). Their
 *   outcomes are the events `xstate.done.actor.<id>` and
 *   `xstate.error.actor.<id>`, which the traversal sends only when
 *   `events` lists them, and guards can only see what those events carry.
 * - `toDirectedGraph` lists `on`, onDone and onError edges but not `always`
 *   ones, and `createTestModel` refuses any machine that invokes.
 *
 * So the machine is *steered*: `machine.provide()` replaces each named guard
 * with a stub that holds when the event starting the macrostep names it
 * (XState hands that same event to the guards of eventless transitions).
 * The traversal gets one variant of each invoke event per guard name, plus
 * one naming none. `getSimplePaths` then finds every macrostep path to a
 * final state. xstate's `getMicrosteps` expands each macrostep into the
 * states it passes through. Each microstep is named by the transition
 * definition, from the machine's table (machines/table.ts, the one reading
 * of the definition that the engines and the diagrams use too),
 * that the steering selects, and the target XState reached is checked
 * against it. Nothing here repeats the machine by hand.
 *
 * One limit: an event names at most one guard, so a macrostep that crosses
 * two guarded choices can take a non-default branch at only one of them.
 * The coverage check reports any transition this leaves out, by name.
 */
import { getInitialMicrosteps, getMicrosteps, getNextTransitions, type AnyMachineSnapshot, type AnyStateMachine, type EventObject } from 'xstate';
import { getSimplePaths } from 'xstate/graph';
import { machineTable, type TableTransition } from '../../machines/index.ts';

export interface ModelTransition {
  /** `source -> target [guard] (event)`: how tables and reports name it. */
  readonly key: string;
  readonly source: string;
  readonly target: string;
  readonly guard: string | null;
  /** `always`, `done` or `error` (an invoked actor's outcome), else the event type. */
  readonly event: string;
}

export interface MachineGraph {
  readonly id: string;
  readonly states: readonly string[];
  readonly transitions: readonly ModelTransition[];
}

export interface ModelPath {
  /** The states entered, in order, initial state first. */
  readonly states: readonly string[];
  /** Keys of the transitions taken, in order. */
  readonly transitions: readonly string[];
}

/** `always`, `done`, `error` or the event type: the part of a transition's name that says what fired it. */
export function eventKind(eventType: string): string {
  if (eventType === '' || eventType === 'always') return 'always';
  if (eventType.startsWith('xstate.done.actor.')) return 'done';
  if (eventType.startsWith('xstate.error.actor.')) return 'error';
  return eventType;
}

export function transitionKey(source: string, target: string, guard: string | null, event: string): string {
  return `${source} -> ${target}${guard === null ? '' : ` [${guard}]`} (${eventKind(event)})`;
}

function describe(t: TableTransition): ModelTransition {
  const on = `transition ${t.source} on ${JSON.stringify(t.eventType)}`;
  if (t.targets.length !== 1) throw new Error(`${on} has ${t.targets.length} targets; the model needs exactly one`);
  if (t.guard?.inline) throw new Error(`${on} has an inline guard; the model needs guards named in setup()`);
  const guard = t.guard?.name ?? null;
  return { key: transitionKey(t.source, t.targets[0], guard, t.eventType), source: t.source, target: t.targets[0], guard, event: eventKind(t.eventType) };
}

/** Every state and every transition (event, onDone, onError and `always`) of `machine`, from its table (machines/table.ts). */
export function machineGraph(machine: AnyStateMachine): MachineGraph {
  const table = machineTable(machine);
  for (const s of table.states) if (s.parent !== null) throw new Error(`state ${s.id} is nested; the model walks flat machines`);
  const transitions = table.transitions.filter((t) => t.source !== '').map(describe);
  const seen = new Set<string>();
  for (const t of transitions) {
    if (seen.has(t.key)) throw new Error(`two transitions are both named ${t.key}; the model cannot tell them apart`);
    seen.add(t.key);
  }
  return { id: table.id, states: table.states.map((s) => s.key), transitions };
}

// ---------------------------------------------------------------------------
// Steering and paths
// ---------------------------------------------------------------------------

type Steered = EventObject & { readonly steer?: readonly string[]; readonly output?: { steer?: readonly string[] }; readonly error?: { steer?: readonly string[] } };

function steeringOf(event: unknown): readonly string[] {
  const e = event as Steered;
  return e.steer ?? e.output?.steer ?? e.error?.steer ?? [];
}

/** An event of `type` that makes exactly the guards in `steer` hold, shaped as XState would deliver it. */
function steeringEvent(type: string, steer: readonly string[]): Steered {
  if (type.startsWith('xstate.done.actor.')) return { type, output: { steer } };
  if (type.startsWith('xstate.error.actor.')) return { type, error: { steer } };
  return { type, steer };
}

function guardNames(graph: MachineGraph): string[] {
  return [...new Set(graph.transitions.flatMap((t) => (t.guard === null ? [] : [t.guard])))];
}

/** `machine` with each named guard replaced by one that holds when the current event names it. */
export function steer(machine: AnyStateMachine, graph: MachineGraph = machineGraph(machine)): AnyStateMachine {
  const guards = Object.fromEntries(guardNames(graph).map((g) => [g, ({ event }: { event: unknown }) => steeringOf(event).includes(g)]));
  return machine.provide({ guards });
}

function stateOf(snapshot: AnyMachineSnapshot): string {
  const v = snapshot.value as unknown;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** The transition the definition selects from `source` for this event (null type: eventless), under the event's steering. */
function selected(machine: AnyStateMachine, source: string, eventType: string | null, steering: readonly string[]): TableTransition | null {
  const table = machineTable(machine);
  const state = table.state(source);
  if (state === undefined) return null;
  for (const i of state.transitions) {
    const t = table.transitions[i];
    if (t.eventType === (eventType ?? '') && (t.guard === null || steering.includes(t.guard.name))) return t;
  }
  return null;
}

/**
 * Names each microstep of one macrostep (`snapshots`, as `getMicrosteps` returns them) by its
 * transition, checking that XState reached the target the definition names.
 */
function nameMicrosteps(machine: AnyStateMachine, from: string, event: EventObject | null, snapshots: readonly AnyMachineSnapshot[]): { states: string[]; transitions: string[] } {
  const steering = event === null ? [] : steeringOf(event);
  const states: string[] = [];
  const transitions: string[] = [];
  let here = from;
  snapshots.forEach((snapshot, i) => {
    const next = stateOf(snapshot);
    const eventType = i === 0 && event !== null ? event.type : null;
    const t = selected(machine, here, eventType, steering);
    if (t === null || t.targets[0] !== next) {
      throw new Error(`XState went ${here} -> ${next} on ${eventType ?? 'always'}, but the definition selects ${t === null ? 'nothing' : describe(t).key}`);
    }
    transitions.push(describe(t).key);
    states.push(next);
    here = next;
  });
  return { states, transitions };
}

/**
 * The traversal's `events` for a steered machine: for each event the snapshot's state can take
 * (an invoked actor's done and error included), one variant per guard name and one naming none.
 */
export function steeringEvents(graph: MachineGraph): (snapshot: AnyMachineSnapshot) => EventObject[] {
  const variants: (readonly string[])[] = [[], ...guardNames(graph).map((g) => [g])];
  return (snapshot) => {
    const types = [...new Set(getNextTransitions(snapshot).map((t) => t.eventType).filter((type) => type !== ''))];
    return types.flatMap((type) => variants.map((names) => steeringEvent(type, names)));
  };
}

export interface EnumerateOptions {
  /** What the machine's `context` and `output` functions need to be evaluated (no behaviour runs). */
  readonly input: unknown;
}

/**
 * Every path from the initial state to a final state: `getSimplePaths` over the steered machine, each
 * macrostep expanded into microsteps. Paths taking the same transitions are reported once.
 */
export function enumeratePaths(machine: AnyStateMachine, options: EnumerateOptions): ModelPath[] {
  const graph = machineGraph(machine);
  const steered = steer(machine, graph);
  const events = steeringEvents(graph);
  const macroPaths = getSimplePaths(steered, { input: options.input, events, toState: (s) => s.status === 'done' } as Parameters<typeof getSimplePaths>[1]);

  // The initial macrostep: entering the initial state, then any eventless transitions out of it.
  const [entry, ...initialRest] = (getInitialMicrosteps as (m: AnyStateMachine, input: unknown) => [AnyMachineSnapshot, unknown[]][])(steered, options.input);
  const initialState = stateOf(entry[0]);
  const initial = nameMicrosteps(steered, initialState, null, initialRest.map(([s]) => s));

  const cache = new Map<string, { states: string[]; transitions: string[] }>();
  const expand = (from: AnyMachineSnapshot, event: EventObject) => {
    const key = `${stateOf(from)} ${JSON.stringify(event)}`;
    let step = cache.get(key);
    if (step === undefined) {
      const micro = (getMicrosteps as (m: AnyStateMachine, s: AnyMachineSnapshot, e: EventObject) => [AnyMachineSnapshot, unknown[]][])(steered, from, event);
      step = nameMicrosteps(steered, stateOf(from), event, micro.map(([s]) => s));
      cache.set(key, step);
    }
    return step;
  };

  const byTransitions = new Map<string, ModelPath>();
  for (const path of macroPaths) {
    const states = [initialState, ...initial.states];
    const transitions = [...initial.transitions];
    // steps[0] is the initial snapshot (its event reads xstate.init); each later step is the snapshot its event led to.
    for (let i = 1; i < path.steps.length; i++) {
      const step = expand(path.steps[i - 1].state as AnyMachineSnapshot, path.steps[i].event);
      states.push(...step.states);
      transitions.push(...step.transitions);
    }
    const key = transitions.join('\n');
    if (!byTransitions.has(key)) byTransitions.set(key, { states, transitions });
  }
  return [...byTransitions.values()];
}

// ---------------------------------------------------------------------------
// Coverage
// ---------------------------------------------------------------------------

export interface Coverage {
  readonly states: { readonly covered: number; readonly total: number; readonly missing: readonly string[] };
  readonly transitions: { readonly covered: number; readonly total: number; readonly missing: readonly string[] };
}

/** How many of the machine's states and transitions `walks` pass through. */
export function coverageOf(graph: MachineGraph, walks: Iterable<ModelPath>): Coverage {
  const states = new Set<string>();
  const transitions = new Set<string>();
  for (const w of walks) {
    for (const s of w.states) states.add(s);
    for (const t of w.transitions) transitions.add(t);
  }
  const missingStates = graph.states.filter((s) => !states.has(s));
  const missingTransitions = graph.transitions.map((t) => t.key).filter((k) => !transitions.has(k));
  return {
    states: { covered: graph.states.length - missingStates.length, total: graph.states.length, missing: missingStates },
    transitions: { covered: graph.transitions.length - missingTransitions.length, total: graph.transitions.length, missing: missingTransitions },
  };
}

export function coverageLine(graph: MachineGraph, c: Coverage): string {
  return `${graph.id} machine: states covered ${c.states.covered}/${c.states.total}, transitions covered ${c.transitions.covered}/${c.transitions.total}`;
}

/**
 * What a table of ingredients fails to say: every state and transition of the machine needs an entry
 * (else nothing is known to cause it), and every entry must name a state or transition the machine has
 * (else the table describes a machine that no longer exists). One message per problem, naming it.
 */
export function tableProblems(graph: MachineGraph, states: Readonly<Record<string, unknown>>, transitions: Readonly<Record<string, unknown>>): string[] {
  const problems: string[] = [];
  // An empty list of ingredients says no more than a missing entry.
  const has = (table: Readonly<Record<string, unknown>>, key: string) => Object.hasOwn(table, key) && !(Array.isArray(table[key]) && table[key].length === 0);
  for (const s of graph.states) if (!has(states, s)) problems.push(`no ingredient causes state ${s}`);
  for (const t of graph.transitions) if (!has(transitions, t.key)) problems.push(`no ingredient causes transition ${t.key}`);
  const stateNames = new Set(graph.states);
  const transitionKeys = new Set(graph.transitions.map((t) => t.key));
  for (const s of Object.keys(states)) if (!stateNames.has(s)) problems.push(`the table names state ${s}, which the machine does not have`);
  for (const k of Object.keys(transitions)) if (!transitionKeys.has(k)) problems.push(`the table names transition ${k}, which the machine does not have`);
  return problems;
}
