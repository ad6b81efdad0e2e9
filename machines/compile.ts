/**
 * The default engine: an XState machine compiled, once, into a flat
 * transition table whose steps call the machine's own named actions,
 * guards and actors (the objects given to `setup()`).
 *
 * XState's interpreter costs tens of microseconds and tens of kilobytes per
 * request; a request machine needs none of what that buys (no external
 * events, no timers, no spawned children), so the table walks the same
 * states with plain function calls, synchronously while the stages are
 * synchronous and awaiting only real promises. The compiler accepts only
 * the subset it can run exactly (flat states; entry/exit actions; one
 * invoked promise actor per state with onDone/onError; eventless `always`
 * transitions; named guards and actions; final states; machine output) and
 * refuses anything else with an error naming the feature.
 */
import type { AnyStateMachine } from 'xstate';
import { machineTable, type Named, type TableTransition } from './table.ts';
import { eventLabel, type Tracer } from './trace.ts';

type Args = { context: any; event: any };
type ActionFn = (args: Args) => void;
type GuardFn = (args: Args) => boolean;

interface Transition {
  readonly guard: GuardFn | null;
  readonly guardName: string | null;
  readonly target: number;
  /** The target itself, set once every state is built: the walk follows it without an index lookup. */
  to: State;
  readonly actions: readonly ActionFn[];
  readonly eventType: string;
}

interface State {
  readonly name: string;
  readonly entry: readonly ActionFn[];
  readonly exit: readonly ActionFn[];
  readonly final: boolean;
  readonly always: readonly Transition[] | null;
  readonly invoke: {
    readonly id: string;
    /** `xstate.done.actor.<id>` and `xstate.error.actor.<id>`, made once rather than per request. */
    readonly doneType: string;
    readonly errorType: string;
    /** The done event of an actor that finished with no output: one frozen object, shared, since nothing may change an event. */
    readonly doneEmpty: Readonly<{ type: string; output: undefined; actorId: string }>;
    readonly creator: (args: { input: unknown }) => unknown;
    readonly input: (args: Args) => unknown;
    readonly onDone: readonly Transition[];
    readonly onError: readonly Transition[];
  } | null;
}

/** What a transition points at until its target is built. */
const PENDING_STATE: State = Object.freeze({ name: '', entry: [], exit: [], final: true, always: null, invoke: null });

export class MachineCompileError extends Error {
  constructor(machine: string, where: string, feature: string) {
    super(`Cannot compile machine ${machine}: ${where} uses ${feature}, which the compiled engine does not support (run it with engine: 'xstate')`);
    this.name = 'MachineCompileError';
  }
}

export class CompiledMachine<TInput = unknown, TOutput = unknown> {
  readonly id: string;
  readonly states: readonly State[];
  readonly initial: number;
  readonly #context: (args: { input: TInput }) => unknown;
  readonly #output: (args: { context: any }) => TOutput;

  constructor(id: string, states: State[], initial: number, context: (args: { input: TInput }) => unknown, output: (args: { context: any }) => TOutput) {
    this.id = id;
    this.states = states;
    this.initial = initial;
    this.#context = context;
    this.#output = output;
  }

  /** Names of the states, in table order. */
  get stateNames(): string[] {
    return this.states.map((s) => s.name);
  }

  /**
   * Runs one input to the final state. Returns the output directly when every
   * step was synchronous, else a promise of it.
   */
  run(input: TInput, tracer: Tracer | null = null, traceId = ''): TOutput | Promise<TOutput> {
    // One arguments object per run, its event replaced at each step: a run is sequential, and nothing keeps it.
    const args: Args = { context: this.#context({ input }), event: { type: 'xstate.init', input } };
    const active = tracer !== null && tracer.active ? tracer : null;
    const initial = this.states[this.initial];
    this.#enter(initial, args, active, traceId);
    return this.#walk(args, initial, active, traceId);
  }

  /** Walks from `state`, already entered, to the final state or the first stage that answers with a promise. */
  #walk(args: Args, state: State, tracer: Tracer | null, traceId: string): TOutput | Promise<TOutput> {
    for (;;) {
      if (state.final) return this.#output(args);
      let t: Transition;
      if (state.always !== null) t = pick(state.always, args);
      else {
        const invoke = state.invoke!;
        let result: unknown;
        let thenable = false;
        try {
          result = invoke.creator({ input: invoke.input(args) });
          thenable = result !== null && typeof result === 'object' && typeof (result as PromiseLike<unknown>).then === 'function';
        } catch (error) {
          // A synchronous throw is the actor failing, as XState would report it.
          result = new ActorThrew(error);
        }
        if (thenable) return this.#await(args, state, invoke, result as PromiseLike<unknown>, tracer, traceId);
        if (result instanceof ActorThrew) {
          args.event = { type: invoke.errorType, error: result.error, actorId: invoke.id };
          t = pick(invoke.onError, args);
        } else {
          // A synchronous answer: the walk goes on in this loop, without a frame or a promise per stage.
          args.event = result === undefined ? invoke.doneEmpty : { type: invoke.doneType, output: result, actorId: invoke.id };
          t = pick(invoke.onDone, args);
        }
      }
      state = this.#take(state, t, args, tracer, traceId);
    }
  }

  #await(args: Args, from: State, invoke: NonNullable<State['invoke']>, result: PromiseLike<unknown>, tracer: Tracer | null, traceId: string): Promise<TOutput> {
    return Promise.resolve(result).then(
      (output) => this.#settle(args, from, { type: invoke.doneType, output, actorId: invoke.id }, invoke.onDone, tracer, traceId),
      (error) => this.#settle(args, from, { type: invoke.errorType, error, actorId: invoke.id }, invoke.onError, tracer, traceId),
    );
  }

  #settle(args: Args, from: State, event: unknown, transitions: readonly Transition[], tracer: Tracer | null, traceId: string): TOutput | Promise<TOutput> {
    args.event = event;
    return this.#walk(args, this.#take(from, pick(transitions, args), args, tracer, traceId), tracer, traceId);
  }

  /** Takes `t` out of `from`, entering its target; returns the target. */
  #take(from: State, t: Transition, args: Args, tracer: Tracer | null, traceId: string): State {
    // Most states and transitions have no exit or transition actions: they cost a length check.
    if (from.exit.length !== 0) runActions(from.exit, args);
    if (t.actions.length !== 0) runActions(t.actions, args);
    const to = t.to;
    if (tracer !== null) tracer.emit({ kind: 'transition', id: traceId, from: from.name, to: to.name, event: eventLabel(t.eventType), guard: t.guardName, t: performance.now() });
    this.#enter(to, args, tracer, traceId);
    return to;
  }

  #enter(state: State, args: Args, tracer: Tracer | null, traceId: string): void {
    if (state.entry.length !== 0) runActions(state.entry, args);
    if (tracer !== null) tracer.emit({ kind: 'state', id: traceId, state: state.name, t: performance.now() });
  }
}

/** What a synchronous throw of an actor becomes inside the walk, so the error path leaves the `try` at once. */
class ActorThrew {
  constructor(readonly error: unknown) {}
}

// Indexed loops: these run for every state of every request, and need no iterator.
function runActions(actions: readonly ActionFn[], args: Args): void {
  for (let i = 0; i < actions.length; i++) actions[i](args);
}

function pick(transitions: readonly Transition[], args: Args): Transition {
  for (let i = 0; i < transitions.length; i++) {
    const t = transitions[i];
    if (t.guard === null || t.guard(args)) return t;
  }
  // The compiler requires a guard-free last transition, so this is unreachable for compiled machines.
  throw new Error('no transition enabled');
}

/** Compiles `machine` (its table, machines/table.ts, and its `setup()` implementations) into a runnable table. */
export function compileMachine<TInput, TOutput>(machine: AnyStateMachine): CompiledMachine<TInput, TOutput> {
  const table = machineTable(machine);
  const id = table.id;
  const impl = machine.implementations as { actions: Record<string, unknown>; guards: Record<string, unknown>; actors: Record<string, unknown> };
  const fail = (where: string, feature: string): never => {
    throw new MachineCompileError(id, where, feature);
  };

  const root = table.root;
  if (root.type === 'parallel') fail('the root', 'a parallel root');
  if (root.entry.length > 0) fail('the root', 'root-level entry');
  if (root.exit.length > 0) fail('the root', 'root-level exit');
  if (root.invoke.length > 0) fail('the root', 'root-level invoke');
  if (root.transitions.length > 0) fail('the root', `root-level ${table.transitions[root.transitions[0]].eventType === '' ? 'always' : 'on'}`);
  const names = table.states.map((s) => s.id);
  const action = (where: string, a: Named): ActionFn => {
    if (a.inline) return fail(where, 'an inline or parameterised action (name it in setup())');
    const fn = impl.actions[a.name];
    if (typeof fn !== 'function') return fail(where, `action ${JSON.stringify(a.name)}, which setup() does not supply`);
    return fn as ActionFn;
  };
  const actions = (where: string, named: readonly Named[]): ActionFn[] => named.map((a) => action(where, a));
  const transitions = (where: string, list: readonly TableTransition[]): Transition[] => {
    const out = list.map((t, i) => {
      const here = `${where}[${i}]`;
      if (t.reenter) fail(here, 'transition option "reenter"');
      if (t.targets.length === 0) fail(here, 'a targetless transition');
      let guard: GuardFn | null = null;
      if (t.guard !== null) {
        if (t.guard.inline) fail(here, 'an inline or parameterised guard (name it in setup())');
        const g = impl.guards[t.guard.name];
        if (typeof g !== 'function') fail(here, `guard ${JSON.stringify(t.guard.name)}, which setup() does not supply`);
        guard = g as GuardFn;
      }
      return { guard, guardName: t.guard?.name ?? null, target: names.indexOf(t.targets[0]), to: PENDING_STATE, actions: actions(here, t.actions), eventType: t.eventType };
    });
    if (out.length === 0 || out[out.length - 1].guard !== null) fail(where, 'a transition list whose last entry has a guard (the table needs a default)');
    return out;
  };

  const states: State[] = table.states.map((s) => {
    const where = `state ${JSON.stringify(s.id)}`;
    if (s.parent !== null || s.type === 'compound' || s.type === 'parallel') fail(where, 'nested states');
    if (s.type === 'history') fail(where, 'a history state');
    if (s.invoke.length > 1) fail(where, 'several invocations');
    const own = s.transitions.map((i) => table.transitions[i]);
    const invoked = s.invoke[0];
    for (const t of own) {
      if (t.eventType.startsWith('xstate.after.')) fail(where, 'delayed transitions (after)');
      const fromInvoke = invoked !== undefined && (t.eventType === `xstate.done.actor.${invoked.id}` || t.eventType === `xstate.error.actor.${invoked.id}`);
      if (t.eventType !== '' && !fromInvoke) fail(where, t.eventType.startsWith('xstate.') ? `invoke option or event ${JSON.stringify(t.eventType)}` : 'event transitions (on)');
    }
    const final = s.type === 'final';
    let invoke: State['invoke'] = null;
    if (invoked !== undefined) {
      if (invoked.src.inline) fail(where, 'an inline actor (name it in setup())');
      if (invoked.systemId !== null) fail(where, 'invoke option "systemId"');
      const logic = impl.actors[invoked.src.name] as { config?: unknown } | undefined;
      if (!logic || typeof logic.config !== 'function') fail(where, `actor ${JSON.stringify(invoked.src.name)}, which is not a fromPromise actor supplied by setup()`);
      const doneType = `xstate.done.actor.${invoked.id}`;
      const errorType = `xstate.error.actor.${invoked.id}`;
      const onDone = own.filter((t) => t.eventType === doneType);
      const onError = own.filter((t) => t.eventType === errorType);
      if (onDone.length === 0 || onError.length === 0) fail(where, 'an invocation without both onDone and onError');
      const input = invoked.input;
      invoke = {
        id: invoked.id,
        doneType,
        errorType,
        doneEmpty: Object.freeze({ type: doneType, output: undefined, actorId: invoked.id }),
        creator: logic!.config as (args: { input: unknown }) => unknown,
        input: typeof input === 'function' ? (input as (a: Args) => unknown) : () => input,
        onDone: transitions(`${where} onDone`, onDone),
        onError: transitions(`${where} onError`, onError),
      };
    }
    const eventless = own.filter((t) => t.eventType === '');
    const always = eventless.length === 0 ? null : transitions(`${where} always`, eventless);
    if (!final && always === null && invoke === null) fail(where, 'a state with no way out (neither always nor invoke)');
    if (always !== null && invoke !== null) fail(where, 'both always and invoke');
    return { name: s.key, entry: actions(`${where} entry`, s.entry), exit: actions(`${where} exit`, s.exit), final, always, invoke };
  });
  for (const state of states) {
    const lists = [state.always, state.invoke?.onDone, state.invoke?.onError];
    for (const list of lists) if (list) for (const t of list) t.to = states[t.target];
  }
  const config = machine.config as { context?: unknown; output?: unknown };
  const initial = table.states.findIndex((s) => s.initial && s.parent === null);
  if (typeof config.context !== 'function') fail('the root', 'a context that is not a function of the input');
  if (typeof config.output !== 'function') fail('the root', 'no output function');
  return new CompiledMachine<TInput, TOutput>(id, states, initial, config.context as (a: { input: TInput }) => unknown, config.output as (a: { context: any }) => TOutput);
}
