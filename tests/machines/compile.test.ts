/**
 * The compiler: the request machine compiles into a table with the same
 * states; small machines run synchronously when their actors are; and every
 * XState feature the table cannot run exactly is refused by name.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fromPromise, setup } from 'xstate';
import { compileMachine, MachineCompileError, requestMachine } from '../../machines/index.ts';
import { Tracer } from '../../machines/trace.ts';

const test = suite('compileMachine');

// Loosely typed on purpose: the tests build machines XState's types would (rightly) reject.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const base: any = setup({
  actors: {
    work: fromPromise(({ input }: { input: number }) => {
      if (input === 0) throw new Error('zero');
      return input < 0 ? Promise.reject(new Error('negative')) : (input as unknown as Promise<number>);
    }),
  },
  actions: { note: ({ context }: { context: { log: string[] } }) => context.log.push('note') },
  guards: { big: ({ event }: { event: { output?: number } }) => (event.output ?? 0) > 10 },
} as never);

function machine(states: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return base.createMachine({
    id: 'm',
    initial: 'start',
    context: ({ input }: { input: { n: number; log: string[] } }) => ({ log: input.log, n: input.n }),
    output: ({ context }: { context: { log: string[] } }) => context.log.join(','),
    states,
    ...extra,
  } as never);
}

const good = {
  start: {
    entry: 'note',
    invoke: {
      src: 'work',
      input: ({ context }: { context: { n: number } }) => context.n,
      onDone: [{ guard: 'big', target: 'large', actions: 'note' }, { target: 'small' }],
      onError: { target: 'failed' },
    },
  },
  large: { entry: 'note', always: { target: 'done' } },
  small: { always: { target: 'done' } },
  failed: { always: { target: 'done' } },
  done: { type: 'final' },
};

test('the request machine compiles to a table with every state of the definition', () => {
  const compiled = compileMachine(requestMachine);
  assert.equal(compiled.stateNames, Object.keys((requestMachine.config as { states: object }).states));
  assert.is(compiled.id, 'request');
});

test('a machine whose actors answer synchronously runs synchronously', () => {
  const compiled = compileMachine<{ n: number; log: string[] }, string>(machine(good));
  const out = compiled.run({ n: 20, log: [] });
  assert.is(out, 'note,note,note', 'entry, transition action, entry of the large state');
  assert.is(compiled.run({ n: 3, log: [] }), 'note');
});

test('a promise from an actor is awaited, and its rejection takes onError', async () => {
  const compiled = compileMachine<{ n: number; log: string[] }, string>(machine(good));
  const rejected = compiled.run({ n: -1, log: [] });
  assert.instance(rejected, Promise);
  assert.is(await rejected, 'note');
});

test('an actor that throws synchronously takes onError at once, with no promise in between', () => {
  const compiled = compileMachine<{ n: number; log: string[] }, string>(machine(good));
  assert.is(compiled.run({ n: 0, log: [] }), 'note', 'the entry note only: onError leads to failed, then done');
});

// The walk a process runs when it refuses code generation from strings: the same steps as the written one.
async function walked(walk: 'written' | 'interpreted', n: number): Promise<{ output: string; steps: string[] }> {
  const compiled = compileMachine<{ n: number; log: string[] }, string>(machine({ ...good, start: { ...good.start, exit: 'note' } }), { walk });
  const tracer = new Tracer();
  const steps: string[] = [];
  tracer.listen((e) => { steps.push(e.kind === 'state' ? `state ${e.state}` : e.kind === 'transition' ? `${e.from} -${e.event}${e.guard ? ` [${e.guard}]` : ''}-> ${e.to}` : e.kind); });
  const output = await compiled.run({ n, log: [] }, tracer, 'r1');
  return { output, steps };
}

for (const [n, why] of [[20, 'a guarded onDone'], [3, 'the default onDone'], [-1, 'a rejected promise'], [0, 'a synchronous throw']] as const) {
  test(`the interpreted walk takes the written walk's steps, with its output, for ${why}`, async () => {
    const written = await walked('written', n);
    const interpreted = await walked('interpreted', n);
    assert.equal(interpreted, written);
    assert.ok(written.steps.length >= 4, 'the trace names the states and transitions walked');
  });
}

test('the interpreted walk is synchronous while the actors are', () => {
  const compiled = compileMachine<{ n: number; log: string[] }, string>(machine(good), { walk: 'interpreted' });
  assert.is(compiled.run({ n: 20, log: [] }), 'note,note,note');
  assert.is(compiled.run({ n: 0, log: [] }), 'note');
});

const refusals: [string, Record<string, unknown>, Record<string, unknown>?, RegExp?][] = [
  ['nested states', { ...good, start: { ...good.start, initial: 'a', states: { a: {} } } }, undefined, /nested states/],
  ['delayed transitions', { ...good, small: { after: { 100: { target: 'done' } } } }, undefined, /delayed transitions/],
  ['event transitions', { ...good, small: { on: { GO: { target: 'done' } } } }, undefined, /event transitions/],
  ['history states', { ...good, small: { type: 'history' } }, undefined, /history/],
  ['an inline action', { ...good, small: { entry: () => {}, always: { target: 'done' } } }, undefined, /inline or parameterised action/],
  ['an inline guard', { ...good, small: { always: [{ guard: () => true, target: 'done' }, { target: 'done' }] } }, undefined, /inline or parameterised guard/],
  ['several invocations', { ...good, start: { invoke: [good.start.invoke, good.start.invoke] } }, undefined, /several invocations/],
  ['an actor setup() does not supply', { ...good, start: { invoke: { ...good.start.invoke, src: 'missing' } } }, undefined, /actor "missing"/],
  ['an invocation without onError', { ...good, start: { invoke: { src: 'work', onDone: { target: 'done' } } } }, undefined, /both onDone and onError/],
  ['a guarded last transition', { ...good, small: { always: [{ guard: 'big', target: 'done' }] } }, undefined, /last entry has a guard/],
  ['a parallel root', good, { type: 'parallel' }, /parallel root/],
  ['a state with no way out', { ...good, small: {} }, undefined, /no way out/],
];

for (const [feature, states, extra, message] of refusals) {
  test(`refuses ${feature}, naming it`, () => {
    let error: unknown;
    try {
      compileMachine(machine(states, extra));
    } catch (e) {
      error = e;
    }
    assert.instance(error, MachineCompileError);
    assert.match((error as Error).message, message!);
    assert.match((error as Error).message, /engine: 'xstate'/);
  });
}

test.run();
