/**
 * The engine a compiled machine runs on: the flat table of states and the walk over it. Kept apart
 * from the compiler (compile.ts), which reads XState machines, so that the declarations of
 * `createApp`'s `App` (and so of the package's root entry) never import XState's own: those fail a
 * consumer's type check under `exactOptionalPropertyTypes` with `skipLibCheck` off.
 */
import { type Tracer } from './trace.ts';

/**
 * What the machine's own actions, guards and actor inputs are called with, as XState calls them: the
 * run's context and the event being handled. The walk does not look inside either; each function was
 * written by the machine's `setup()` for its own context and events.
 */
export type Args = { context: unknown; event: unknown };
export type ActionFn = (args: Args) => void;
export type GuardFn = (args: Args) => boolean;

export interface Transition {
  readonly guard: GuardFn | null;
  readonly guardName: string | null;
  readonly target: number;
  readonly actions: readonly ActionFn[];
  readonly eventType: string;
}

export interface State {
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

/** How an awaited actor ended, for the walk to go on from its state. */
export interface Settled {
  readonly failed: boolean;
  readonly value: unknown;
}

/**
 * The compiled walk: from state `state` (already entered; ENTER_INITIAL enters the initial state
 * first), or from an invoking state whose actor has `settled`, to the final state's output, or to
 * the promise of it when an actor answers with a promise.
 */
export type Walk = (args: Args, state: number, tracer: Tracer | null, traceId: string, settled: Settled | null) => unknown;

/** Where the walk of a new run starts: entering the initial state. */
export const ENTER_INITIAL = -1;

export class CompiledMachine<TInput = unknown, TOutput = unknown> {
  readonly id: string;
  readonly states: readonly State[];
  readonly initial: number;
  readonly #context: (args: { input: TInput }) => unknown;
  readonly #walk: Walk;

  constructor(id: string, states: State[], initial: number, context: (args: { input: TInput }) => unknown, walk: Walk) {
    this.id = id;
    this.states = states;
    this.initial = initial;
    this.#context = context;
    this.#walk = walk;
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
    return this.#walk(args, ENTER_INITIAL, tracer !== null && tracer.active ? tracer : null, traceId, null) as TOutput | Promise<TOutput>;
  }
}
