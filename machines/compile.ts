/**
 * The default engine: an XState machine compiled, once, into a flat
 * transition table whose steps call the machine's own named actions,
 * guards and actors (the objects given to `setup()`).
 *
 * XState's interpreter costs tens of microseconds and tens of kilobytes per
 * request; a request machine needs none of what that buys (no external
 * events, no timers, no spawned children), so the table walks the same
 * states with plain function calls, synchronously while the stages are
 * synchronous and awaiting only real promises. The walk itself is written
 * out as JavaScript once per machine (as the routing compiles its readers
 * and generators): a loop over a switch with one case per state, where each
 * action, guard and actor is called from a call site of its own. V8 then
 * sees each site call one function, which it can inline, where one loop
 * over the table would call every function of the machine from the same
 * few sites. A process that refuses code generation from strings walks the
 * same table with a loop instead (`interpretWalk`), step for step the same.
 * The compiler accepts only the subset it can run exactly (flat
 * states; entry/exit actions; one invoked promise actor per state with
 * onDone/onError; eventless `always` transitions; named guards and actions;
 * final states; machine output) and refuses anything else with an error
 * naming the feature.
 */
import type { AnyStateMachine } from 'xstate';
import { machineTable, type Named, type TableTransition } from './table.ts';
import { functionFromSource } from '../core/generated-code.ts';
import { eventLabel, type Tracer } from './trace.ts';
import { CompiledMachine, ENTER_INITIAL, type ActionFn, type Args, type GuardFn, type State, type Transition, type Walk } from './compiled-machine.ts';

export { CompiledMachine };

export class MachineCompileError extends Error {
  constructor(machine: string, where: string, feature: string) {
    super(`Cannot compile machine ${machine}: ${where} uses ${feature}, which the compiled engine does not support (run it with engine: 'xstate')`);
    this.name = 'MachineCompileError';
  }
}

/** What the generated walk reads: the table, the output function, and how to wait for an actor's promise. */
interface WalkBindings {
  readonly states: readonly State[];
  readonly transitions: readonly Transition[];
  readonly eventLabels: readonly string[];
  readonly output: (args: { context: unknown }) => unknown;
  readonly later: (args: Args, state: number, result: PromiseLike<unknown>, tracer: Tracer | null, traceId: string) => Promise<unknown>;
  readonly now: () => number;
}

/**
 * Writes the walk of `states` as JavaScript and compiles it. The source holds indexes and names of
 * its own only (never text from the machine); each action, guard and actor is a constant of its
 * own, read from the table once when the walk is made. The order of everything a step does is the
 * table's: an invoked actor's input then the actor; the exit actions of the state left, the
 * transition's actions, then the entry actions of the state entered, each traced when a tracer listens.
 */
function compileWalk(states: readonly State[], initial: number, output: (args: { context: unknown }) => unknown): Walk | null {
  const transitions: Transition[] = [];
  const consts: string[] = [];
  const lines: string[] = [];
  const enter = (to: number, indent: string): string[] => [
    ...states[to].entry.map((_, j) => `${indent}e${to}_${j}(args);`),
    `${indent}if (tracer !== null) tracer.emit({ kind: 'state', id: traceId, state: states[${to}].name, t: now() });`,
  ];
  const take = (from: number, k: number, indent: string): string[] => {
    const t = transitions[k];
    return [
      ...states[from].exit.map((_, j) => `${indent}x${from}_${j}(args);`),
      ...t.actions.map((_, j) => `${indent}a${k}_${j}(args);`),
      `${indent}if (tracer !== null) tracer.emit({ kind: 'transition', id: traceId, from: states[${from}].name, to: states[${t.target}].name, event: eventLabels[${k}], guard: transitions[${k}].guardName, t: now() });`,
      ...enter(t.target, indent),
      `${indent}s = ${t.target};`,
      // The next state's case follows this one: leaving the case's block falls through into it, with no
      // turn of the loop and no dispatch on `s` (a machine's usual path runs down its states in order).
      t.target === from + 1 ? `${indent}break next${from};` : `${indent}continue;`,
    ];
  };
  // The first transition whose guard passes; the compiler has made sure the last one has none.
  const pick = (from: number, list: readonly Transition[], indent: string): string[] => list.flatMap((t) => {
    const k = transitions.push(t) - 1;
    t.actions.forEach((_, j) => consts.push(`const a${k}_${j} = transitions[${k}].actions[${j}];`));
    if (t.guard === null) return take(from, k, indent);
    consts.push(`const g${k} = transitions[${k}].guard;`);
    return [`${indent}if (g${k}(args)) {`, ...take(from, k, `${indent}  `), `${indent}}`];
  });

  states.forEach((state, i) => {
    state.entry.forEach((_, j) => consts.push(`const e${i}_${j} = states[${i}].entry[${j}];`));
    state.exit.forEach((_, j) => consts.push(`const x${i}_${j} = states[${i}].exit[${j}];`));
    lines.push(`    case ${i}: next${i}: {`);
    if (state.final) lines.push('      return output(args);');
    else if (state.always !== null) lines.push(...pick(i, state.always, '      '));
    else {
      const invoke = `invoke${i}`;
      consts.push(`const ${invoke} = states[${i}].invoke, input${i} = ${invoke}.input, creator${i} = ${invoke}.creator;`);
      const errorEvent = `{ type: ${invoke}.errorType, error: result, actorId: ${invoke}.id }`;
      const doneEvent = `{ type: ${invoke}.doneType, output: result, actorId: ${invoke}.id }`;
      lines.push(
        '      let result;',
        '      let failed = false;',
        '      if (settled !== null) {',
        '        failed = settled.failed;',
        '        result = settled.value;',
        '        settled = null;',
        `        args.event = failed ? ${errorEvent} : ${doneEvent};`,
        '      } else {',
        '        let thenable = false;',
        '        try {',
        `          result = creator${i}({ input: input${i}(args) });`,
        "          thenable = result !== null && typeof result === 'object' && typeof result.then === 'function';",
        '        } catch (error) {',
        // A synchronous throw is the actor failing, as XState would report it.
        '          result = error;',
        '          failed = true;',
        '        }',
        `        if (thenable) return later(args, ${i}, result, tracer, traceId);`,
        // An actor that answered at once: the walk goes on in this loop, without a frame or a promise per stage.
        `        args.event = failed ? ${errorEvent} : result === undefined ? ${invoke}.doneEmpty : ${doneEvent};`,
        '      }',
        '      if (failed) {',
        ...pick(i, state.invoke!.onError, '        '),
        '      }',
        ...pick(i, state.invoke!.onDone, '      '),
      );
    }
    lines.push('    }');
  });
  lines.push(`    case ${ENTER_INITIAL}: {`, ...enter(initial, '      '), `      s = ${initial};`, '      continue;', '    }');

  const source = [
    "'use strict';",
    'const { states, transitions, eventLabels, output, later, now } = bindings;',
    ...consts,
    'return function walk(args, s, tracer, traceId, settled) {',
    '  for (;;) switch (s) {',
    ...lines,
    // Unreachable: every state has its case, and every case returns or continues.
    "    default: throw new Error('no state ' + s);",
    '  }',
    '};',
  ].join('\n');
  const factory = functionFromSource<(bindings: WalkBindings) => Walk>(['bindings'], source);
  if (factory === null) return null;
  const bindings: WalkBindings = { states, transitions, eventLabels: transitions.map((t) => eventLabel(t.eventType)), output, later: laterFor(() => walk), now };
  const walk = factory(bindings);
  return walk;
}

const now = (): number => performance.now();

/** How a walk waits for an actor's promise: it goes on from the invoking state once the promise settles. */
function laterFor(walk: () => Walk): WalkBindings['later'] {
  return (args, state, result, tracer, traceId) => Promise.resolve(result).then(
    (value) => walk()(args, state, tracer, traceId, { failed: false, value }),
    (error: unknown) => walk()(args, state, tracer, traceId, { failed: true, value: error }),
  );
}

/**
 * The walk as a loop over the table, for a process that refuses code generation from strings (and
 * for `compileMachine(machine, { walk: 'interpreted' })`). Every step is the written walk's, in the
 * same order: the same actions, guards and actors called with the same arguments, the same events,
 * the same trace; only the call sites are shared, so V8 inlines less.
 */
function interpretWalk(states: readonly State[], initial: number, output: (args: { context: unknown }) => unknown): Walk {
  const labels = new Map<Transition, string>();
  for (const state of states) {
    for (const t of [...(state.always ?? []), ...(state.invoke?.onError ?? []), ...(state.invoke?.onDone ?? [])]) labels.set(t, eventLabel(t.eventType));
  }
  const enter = (args: Args, to: number, tracer: Tracer | null, traceId: string): number => {
    for (const entry of states[to].entry) entry(args);
    if (tracer !== null) tracer.emit({ kind: 'state', id: traceId, state: states[to].name, t: now() });
    return to;
  };
  // The first transition whose guard passes (the compiler has made sure the last one has none), taken.
  const take = (args: Args, from: number, list: readonly Transition[], tracer: Tracer | null, traceId: string): number => {
    let k = 0;
    while (list[k].guard !== null && !list[k].guard!(args)) k++;
    const t = list[k];
    for (const exit of states[from].exit) exit(args);
    for (const action of t.actions) action(args);
    if (tracer !== null) {
      tracer.emit({ kind: 'transition', id: traceId, from: states[from].name, to: states[t.target].name, event: labels.get(t)!, guard: t.guardName, t: now() });
    }
    return enter(args, t.target, tracer, traceId);
  };
  const later = laterFor(() => walk);
  const walk: Walk = (args, start, tracer, traceId, resumed) => {
    let settled = resumed;
    let s = start === ENTER_INITIAL ? enter(args, initial, tracer, traceId) : start;
    for (;;) {
      const state = states[s];
      if (state.final) return output(args);
      if (state.always !== null) {
        s = take(args, s, state.always, tracer, traceId);
        continue;
      }
      const invoke = state.invoke!;
      let result: unknown;
      let failed = false;
      if (settled !== null) {
        failed = settled.failed;
        result = settled.value;
        settled = null;
        args.event = failed ? { type: invoke.errorType, error: result, actorId: invoke.id } : { type: invoke.doneType, output: result, actorId: invoke.id };
      } else {
        let thenable = false;
        try {
          result = invoke.creator({ input: invoke.input(args) });
          thenable = result !== null && typeof result === 'object' && typeof (result as { then?: unknown }).then === 'function';
        } catch (error) {
          // A synchronous throw is the actor failing, as XState would report it.
          result = error;
          failed = true;
        }
        if (thenable) return later(args, s, result as PromiseLike<unknown>, tracer, traceId);
        args.event = failed ? { type: invoke.errorType, error: result, actorId: invoke.id } : result === undefined ? invoke.doneEmpty : { type: invoke.doneType, output: result, actorId: invoke.id };
      }
      s = take(args, s, failed ? invoke.onError : invoke.onDone, tracer, traceId);
    }
  };
  return walk;
}

/** How `compileMachine` runs the table: written out as JavaScript (the default, where the process allows it) or interpreted. */
export interface CompileOptions {
  readonly walk?: 'written' | 'interpreted';
}

/** Compiles `machine` (its table, machines/table.ts, and its `setup()` implementations) into a runnable table. */
export function compileMachine<TInput, TOutput>(machine: AnyStateMachine, options: CompileOptions = {}): CompiledMachine<TInput, TOutput> {
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
      return { guard, guardName: t.guard?.name ?? null, target: names.indexOf(t.targets[0]), actions: actions(here, t.actions), eventType: t.eventType };
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
  const config = machine.config as { context?: unknown; output?: unknown };
  const initial = table.states.findIndex((s) => s.initial && s.parent === null);
  if (typeof config.context !== 'function') fail('the root', 'a context that is not a function of the input');
  if (typeof config.output !== 'function') fail('the root', 'no output function');
  const output = config.output as (a: { context: unknown }) => unknown;
  const walk = (options.walk !== 'interpreted' ? compileWalk(states, initial, output) : null) ?? interpretWalk(states, initial, output);
  return new CompiledMachine<TInput, TOutput>(id, states, initial, config.context as (a: { input: TInput }) => unknown, walk);
}
