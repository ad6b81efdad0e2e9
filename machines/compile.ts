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
import { eventLabel, type Tracer } from './trace.ts';

type Args = { context: any; event: any };
type ActionFn = (args: Args) => void;
type GuardFn = (args: Args) => boolean;

interface Transition {
  readonly guard: GuardFn | null;
  readonly guardName: string | null;
  readonly target: number;
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
    readonly creator: (args: { input: unknown }) => unknown;
    readonly input: (args: Args) => unknown;
    readonly onDone: readonly Transition[];
    readonly onError: readonly Transition[];
  } | null;
}

export class MachineCompileError extends Error {
  constructor(machine: string, where: string, feature: string) {
    super(`Cannot compile machine ${machine}: ${where} uses ${feature}, which the compiled engine does not support (run it with engine: 'xstate')`);
    this.name = 'MachineCompileError';
  }
}

/** A request's path through the machine, for tests that compare engines. */
export interface RunResult<T> {
  readonly output: T;
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
    return this.#walk(args, this.initial, tracer !== null && tracer.active ? tracer : null, traceId, true);
  }

  #walk(args: Args, index: number, tracer: Tracer | null, traceId: string, entering: boolean): TOutput | Promise<TOutput> {
    const states = this.states;
    let state = states[index];
    if (entering) this.#enter(state, args, tracer, traceId);
    for (;;) {
      if (state.final) return this.#output(args);
      if (state.always !== null) {
        state = states[this.#take(state, pick(state.always, args), args, tracer, traceId)];
        continue;
      }
      const invoke = state.invoke!;
      let result: unknown;
      try {
        result = invoke.creator({ input: invoke.input(args) });
      } catch (error) {
        // A synchronous throw is the actor failing, as XState would report it.
        return this.#settle(args, state, { type: invoke.errorType, error, actorId: invoke.id }, invoke.onError, tracer, traceId);
      }
      if (result !== null && typeof result === 'object' && typeof (result as PromiseLike<unknown>).then === 'function') {
        const from = state;
        return Promise.resolve(result).then(
          (output) => this.#settle(args, from, { type: invoke.doneType, output, actorId: invoke.id }, invoke.onDone, tracer, traceId),
          (error) => this.#settle(args, from, { type: invoke.errorType, error, actorId: invoke.id }, invoke.onError, tracer, traceId),
        );
      }
      return this.#settle(args, state, { type: invoke.doneType, output: result, actorId: invoke.id }, invoke.onDone, tracer, traceId);
    }
  }

  #settle(args: Args, from: State, event: unknown, transitions: readonly Transition[], tracer: Tracer | null, traceId: string): TOutput | Promise<TOutput> {
    args.event = event;
    return this.#walk(args, this.#take(from, pick(transitions, args), args, tracer, traceId), tracer, traceId, false);
  }

  /** Takes `t` out of `from`, entering its target; returns the target's index. */
  #take(from: State, t: Transition, args: Args, tracer: Tracer | null, traceId: string): number {
    for (const a of from.exit) a(args);
    for (const a of t.actions) a(args);
    const to = this.states[t.target];
    if (tracer) tracer.emit({ kind: 'transition', id: traceId, from: from.name, to: to.name, event: eventLabel(t.eventType), guard: t.guardName, t: performance.now() });
    this.#enter(to, args, tracer, traceId);
    return t.target;
  }

  #enter(state: State, args: Args, tracer: Tracer | null, traceId: string): void {
    for (const a of state.entry) a(args);
    if (tracer) tracer.emit({ kind: 'state', id: traceId, state: state.name, t: performance.now() });
  }
}

function pick(transitions: readonly Transition[], args: Args): Transition {
  for (const t of transitions) if (t.guard === null || t.guard(args)) return t;
  // The compiler requires a guard-free last transition, so this is unreachable for compiled machines.
  throw new Error('no transition enabled');
}

type Config = Record<string, unknown>;

/** Compiles `machine` (its config and its `setup()` implementations) into a table. */
export function compileMachine<TInput, TOutput>(machine: AnyStateMachine): CompiledMachine<TInput, TOutput> {
  const config = machine.config as Config;
  const id = String(config.id ?? machine.id);
  const impl = machine.implementations as { actions: Record<string, unknown>; guards: Record<string, unknown>; actors: Record<string, unknown> };
  const fail = (where: string, feature: string): never => {
    throw new MachineCompileError(id, where, feature);
  };

  for (const key of ['type', 'on', 'after', 'always', 'invoke', 'entry', 'exit']) {
    if (key in config) fail('the root', key === 'type' ? `a ${String(config.type)} root` : `root-level ${key}`);
  }
  const stateConfigs = (config.states ?? {}) as Record<string, Config>;
  const names = Object.keys(stateConfigs);
  const indexOf = (where: string, target: unknown): number => {
    if (typeof target !== 'string') return fail(where, 'a non-string transition target');
    const i = names.indexOf(target);
    if (i < 0) return fail(where, `an unknown or non-sibling target ${JSON.stringify(target)}`);
    return i;
  };
  const action = (where: string, name: unknown): ActionFn => {
    if (typeof name !== 'string') return fail(where, 'an inline or parameterised action (name it in setup())');
    const fn = impl.actions[name];
    if (typeof fn !== 'function') return fail(where, `action ${JSON.stringify(name)}, which setup() does not supply`);
    return fn as ActionFn;
  };
  const actions = (where: string, list: unknown): ActionFn[] => (list === undefined ? [] : (Array.isArray(list) ? list : [list]).map((a) => action(where, a)));
  const transitions = (where: string, spec: unknown, eventType: string): Transition[] => {
    const list = (Array.isArray(spec) ? spec : [spec]) as Config[];
    const out = list.map((t, i) => {
      const here = `${where}[${i}]`;
      for (const key of Object.keys(t)) if (!['target', 'guard', 'actions', 'description', 'meta'].includes(key)) fail(here, `transition option ${JSON.stringify(key)}`);
      if (t.target === undefined) fail(here, 'a targetless transition');
      let guard: GuardFn | null = null;
      let guardName: string | null = null;
      if (t.guard !== undefined) {
        if (typeof t.guard !== 'string') fail(here, 'an inline or parameterised guard (name it in setup())');
        guardName = t.guard as string;
        const g = impl.guards[guardName];
        if (typeof g !== 'function') fail(here, `guard ${JSON.stringify(guardName)}, which setup() does not supply`);
        guard = g as GuardFn;
      }
      return { guard, guardName, target: indexOf(here, t.target), actions: actions(here, t.actions), eventType };
    });
    if (out.length === 0 || out[out.length - 1].guard !== null) fail(where, 'a transition list whose last entry has a guard (the table needs a default)');
    return out;
  };

  const rootStates = (machine.root as unknown as { states: Record<string, { invoke: { id: string }[] }> }).states;
  const states: State[] = names.map((name) => {
    const s = stateConfigs[name];
    const where = `state ${JSON.stringify(name)}`;
    if ('states' in s) fail(where, 'nested states');
    for (const key of Object.keys(s)) {
      if (!['type', 'entry', 'exit', 'always', 'invoke', 'description', 'meta', 'tags'].includes(key)) {
        fail(where, key === 'states' ? 'nested states' : key === 'after' ? 'delayed transitions (after)' : key === 'on' ? 'event transitions (on)' : `option ${JSON.stringify(key)}`);
      }
    }
    if (s.type !== undefined && s.type !== 'final' && s.type !== 'atomic') fail(where, `a ${String(s.type)} state`);
    const final = s.type === 'final';
    let invoke: State['invoke'] = null;
    if (s.invoke !== undefined) {
      if (Array.isArray(s.invoke)) fail(where, 'several invocations');
      const inv = s.invoke as Config;
      for (const key of Object.keys(inv)) if (!['src', 'input', 'onDone', 'onError', 'id'].includes(key)) fail(where, `invoke option ${JSON.stringify(key)}`);
      if (typeof inv.src !== 'string') fail(where, 'an inline actor (name it in setup())');
      const logic = impl.actors[inv.src as string] as { config?: unknown } | undefined;
      if (!logic || typeof logic.config !== 'function') fail(where, `actor ${JSON.stringify(inv.src)}, which is not a fromPromise actor supplied by setup()`);
      if (inv.onDone === undefined || inv.onError === undefined) fail(where, 'an invocation without both onDone and onError');
      const invokeId = rootStates[name].invoke[0].id;
      invoke = {
        id: invokeId,
        doneType: `xstate.done.actor.${invokeId}`,
        errorType: `xstate.error.actor.${invokeId}`,
        creator: logic!.config as (args: { input: unknown }) => unknown,
        input: typeof inv.input === 'function' ? (inv.input as (a: Args) => unknown) : () => inv.input,
        onDone: transitions(`${where} onDone`, inv.onDone, `xstate.done.actor.${invokeId}`),
        onError: transitions(`${where} onError`, inv.onError, `xstate.error.actor.${invokeId}`),
      };
    }
    const always = s.always === undefined ? null : transitions(`${where} always`, s.always, '');
    if (!final && always === null && invoke === null) fail(where, 'a state with no way out (neither always nor invoke)');
    if (always !== null && invoke !== null) fail(where, 'both always and invoke');
    return { name, entry: actions(`${where} entry`, s.entry), exit: actions(`${where} exit`, s.exit), final, always, invoke };
  });
  const initial = indexOf('the root', config.initial);
  if (typeof config.context !== 'function') fail('the root', 'a context that is not a function of the input');
  if (typeof config.output !== 'function') fail('the root', 'no output function');
  return new CompiledMachine<TInput, TOutput>(id, states, initial, config.context as (a: { input: TInput }) => unknown, config.output as (a: { context: any }) => TOutput);
}
