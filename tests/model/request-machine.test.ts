/**
 * Model-based tests of the request machine: the paths come from the machine
 * itself (machine-model.ts, over xstate/graph), each path becomes a concrete
 * request through the ingredient table (request-ingredients.ts), and every
 * request is sent to a real `serve()` over HTTP and over the WebSocket
 * tunnel, on the compiled engine and on XState's interpreter.
 *
 * For each request, each of the four combinations must report (through
 * `app.trace`) exactly the path's states and transitions, and all four must
 * give the same response. "Same response" means the same status, the same
 * body bytes, and the same headers, except those that are not the app's:
 * `X-Runtime` (a timing), and `Date`, `Connection`, `Keep-Alive` and
 * `Transfer-Encoding`, which node:http adds to frame the HTTP response and
 * the tunnel never carries. Everything else (Content-Type, Content-Length,
 * ETag, Cache-Control, Allow, Set-Cookie) must match. The reason phrase is
 * not compared: HTTP always has one and the tunnel carries only custom ones.
 *
 * A state or transition without an ingredient fails here by name, and the
 * last test prints how much of the machine the requests covered and fails
 * when it is less than all of it.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fromPromise, setup } from 'xstate';
import { createTestModel, getShortestPaths, toDirectedGraph } from 'xstate/graph';
import { EXPORTED_MACHINES, requestMachine, type App, type Engine, type TraceEvent } from '../../machines/index.ts';
import {
  coverageLine, coverageOf, enumeratePaths, eventKind, machineGraph, steer, steeringEvents, tableProblems, transitionKey,
  type MachineGraph, type ModelPath,
} from './machine-model.ts';
import { fixtureApp } from './request-fixture.ts';
import { STATE_INGREDIENTS, TRANSITION_INGREDIENTS, planRequests, type Draft, type PlannedRequest } from './request-ingredients.ts';
import { httpTransport, tunnelTransport, type Client, type ClientResponse, type Transport } from '../support/harness.ts';

// The machine's context and output functions read `input.run` and `run.output`; nothing else of a run is
// touched while the graph is walked, since no action or actor runs.
const INPUT = { run: { output: null } };

const graph = machineGraph(requestMachine);
const paths = enumeratePaths(requestMachine, { input: INPUT });
const planned = planRequests(paths);

function assertTableComplete(g: MachineGraph, states: Readonly<Record<string, unknown>>, transitions: Readonly<Record<string, unknown>>): void {
  const problems = tableProblems(g, states, transitions);
  if (problems.length > 0) throw new assert.Assertion({ message: `the ingredient table of the ${g.id} machine is incomplete:\n  ${problems.join('\n  ')}`, generated: false, operator: 'tableComplete', expects: [], actual: problems });
}

// ---------------------------------------------------------------------------

const model = suite('request machine model');

model('xstate/graph walks macrosteps: eventless transitions are not edges, invoked outcomes are events', () => {
  const always = graph.transitions.filter((t) => t.event === 'always');
  const invoked = graph.transitions.filter((t) => t.event === 'done' || t.event === 'error');
  assert.ok(always.length > 0 && invoked.length > 0);
  const edges = toDirectedGraph(requestMachine).children.flatMap((c) => c.edges.map((e) => eventKind(e.label.text)));
  assert.equal(edges.sort(), invoked.map((t) => t.event).sort(), 'toDirectedGraph lists onDone/onError edges and no always edge');
  assert.throws(() => createTestModel(requestMachine), /Invocations/, 'createTestModel refuses a machine that invokes');
  const vertices = getShortestPaths(steer(requestMachine, graph), { input: INPUT, events: steeringEvents(graph) } as Parameters<typeof getShortestPaths>[1])
    .map((p) => String(p.state.value));
  assert.equal(vertices.sort(), ['dispatching', 'done', 'parsing', 'servingPublic'], 'only states waiting on an actor, and the final state, are vertices');
});

model('every machine Signalbox exports is modelled here', () => {
  // A second machine (a tunnel connection machine, say) needs its own paths and ingredients before it ships.
  const modelled = new Set([requestMachine.id]);
  for (const { id } of EXPORTED_MACHINES) assert.ok(modelled.has(id), `machine ${id} has no model-based test in tests/model/`);
});

model('every state and every transition of the request machine has an ingredient', () => {
  assertTableComplete(graph, STATE_INGREDIENTS, TRANSITION_INGREDIENTS);
});

model('the enumerated paths reach every state and take every transition', () => {
  const c = coverageOf(graph, paths);
  assert.equal(c.states.missing, [], 'states no path reaches');
  assert.equal(c.transitions.missing, [], 'transitions no path takes');
  for (const p of paths) {
    assert.is(p.states[0], 'servingPublic');
    assert.is(p.states[p.states.length - 1], 'done');
    assert.is(p.transitions.length, p.states.length - 1);
  }
});

// A machine with one state more than its table knows: `limbo`, entered when a guard holds on the actor's error.
const synthetic = setup({
  guards: { isStuck: () => false },
  actors: { work: fromPromise(async () => undefined) },
}).createMachine({
  id: 'synthetic',
  initial: 'idle',
  states: {
    idle: { always: { target: 'working' } },
    working: {
      invoke: { src: 'work', onDone: { target: 'finished' }, onError: [{ guard: 'isStuck', target: 'limbo' }, { target: 'failed' }] },
    },
    failed: { always: { target: 'finished' } },
    limbo: { always: { target: 'finished' } },
    finished: { type: 'final' },
  },
});
const SYNTHETIC_STATES = { idle: 'any', working: 'any', failed: 'a failing actor', finished: 'any' };
const SYNTHETIC_TRANSITIONS = {
  'idle -> working (always)': ['any'],
  'working -> finished (done)': ['a working actor'],
  'working -> failed (error)': ['a failing actor'],
  'failed -> finished (always)': ['any'],
};

model('the table check names a state, and its transitions, that no ingredient causes', () => {
  const g = machineGraph(synthetic);
  assert.equal(tableProblems(g, SYNTHETIC_STATES, SYNTHETIC_TRANSITIONS), [
    'no ingredient causes state limbo',
    'no ingredient causes transition working -> limbo [isStuck] (error)',
    'no ingredient causes transition limbo -> finished (always)',
  ]);
  try {
    assertTableComplete(g, SYNTHETIC_STATES, SYNTHETIC_TRANSITIONS);
    assert.unreachable('an incomplete table passed');
  } catch (e) {
    assert.instance(e, assert.Assertion);
    assert.match((e as Error).message, /state limbo/);
    assert.match((e as Error).message, /working -> limbo \[isStuck\] \(error\)/);
  }
  // The graph itself does reach limbo: the gap is the table's, and the check is what catches it.
  const c = coverageOf(g, enumeratePaths(synthetic, { input: undefined }));
  assert.is(coverageLine(g, c), 'synthetic machine: states covered 5/5, transitions covered 6/6');
  // An entry for something the machine lacks is a problem too (a renamed state leaves one behind).
  assert.equal(tableProblems(g, { ...SYNTHETIC_STATES, limbo: 'x', gone: 'x' }, { ...SYNTHETIC_TRANSITIONS, 'working -> limbo [isStuck] (error)': ['x'], 'limbo -> finished (always)': [] }), [
    'no ingredient causes transition limbo -> finished (always)',
    'the table names state gone, which the machine does not have',
  ]);
});

model('the enumeration names microsteps from the definition and crosses both invoke outcomes', () => {
  const g = machineGraph(synthetic);
  const walks = enumeratePaths(synthetic, { input: undefined }).map((p) => p.transitions.join(' | ')).sort();
  assert.equal(walks, [
    'idle -> working (always) | working -> failed (error) | failed -> finished (always)',
    'idle -> working (always) | working -> finished (done)',
    'idle -> working (always) | working -> limbo [isStuck] (error) | limbo -> finished (always)',
  ]);
  assert.equal(g.transitions.map((t) => t.key).sort(), [...walks.flatMap((w) => w.split(' | '))].filter((k, i, all) => all.indexOf(k) === i).sort());
});

model.run();

// ---------------------------------------------------------------------------
// Every path, four ways
// ---------------------------------------------------------------------------

interface Combination {
  readonly name: string;
  readonly app: App;
  readonly client: Client;
  readonly events: TraceEvent[];
}

interface Walk {
  readonly states: string[];
  readonly transitions: string[];
  readonly response: ClientResponse;
}

const ENGINES: readonly Engine[] = ['compiled', 'xstate'];
const TRANSPORTS: readonly Transport[] = [httpTransport, tunnelTransport];
// Added by node:http to frame the response, or a timing: not the app's answer.
const NOT_COMPARED = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'x-runtime']);

const combinations: Combination[] = [];
const observed: ModelPath[] = [];

async function walk(c: Combination, draft: Draft): Promise<Walk> {
  const headers: Record<string, string> = { ...draft.headers };
  const send = () => c.client.request({ method: draft.method, path: draft.path, headers, ...(draft.body !== undefined ? { body: draft.body } : {}) });
  if (draft.warm) await send();
  if (draft.conditional) {
    const first = await send();
    const etag = first.headers.etag;
    if (typeof etag !== 'string') throw new Error(`${c.name}: ${draft.method} ${draft.path} gave no ETag to be conditional on`);
    headers['if-none-match'] = etag;
  }
  // One request at a time per combination, so every trace event from here on is this request's.
  const from = c.events.length;
  const response = await send();
  const mine = c.events.slice(from);
  const ids = new Set(mine.map((e) => e.id));
  if (ids.size !== 1) throw new Error(`${c.name}: expected the trace of one request, got ${ids.size}`);
  const states: string[] = [];
  const transitions: string[] = [];
  for (const e of mine) {
    if (e.kind === 'state') states.push(e.state);
    else if (e.kind === 'transition') transitions.push(transitionKey(e.from, e.to, e.guard, e.event));
  }
  return { states, transitions, response };
}

function comparable(r: ClientResponse): { status: number; headers: Record<string, string | string[]>; body: string } {
  const headers = Object.fromEntries(Object.entries(r.headers).filter(([k]) => !NOT_COMPARED.has(k)).sort(([a], [b]) => a.localeCompare(b)));
  return { status: r.status, headers, body: r.body.toString('latin1') };
}

function check(p: PlannedRequest, name: string, w: Walk): void {
  const { draft, path } = p;
  assert.equal(w.states, [...path.states], `${name}: the states entered`);
  assert.equal(w.transitions, [...path.transitions], `${name}: the transitions taken`);
  const r = w.response;
  const e = draft.expect;
  if (e.status !== undefined) assert.is(r.status, e.status, `${name}: status`);
  // HEAD answers with a GET's headers and no body.
  if (draft.method === 'HEAD') assert.is(r.body.length, 0, `${name}: a HEAD answer has no body`);
  else if (e.body !== undefined) assert.is(r.body.toString('utf8'), e.body, `${name}: body`);
  for (const [h, v] of Object.entries(e.headers ?? {})) assert.is(r.headers[h], v, `${name}: ${h}`);
  for (const s of path.states) {
    const problem = STATE_INGREDIENTS[s]?.observe?.(r, draft) ?? null;
    assert.is(problem, null, `${name}: through ${s}: ${problem}`);
  }
}

const run = suite('request machine paths, both engines, HTTP and tunnel');

run.before(async () => {
  for (const engine of ENGINES) {
    for (const transport of TRANSPORTS) {
      const app = fixtureApp(engine);
      const events: TraceEvent[] = [];
      app.trace((e) => events.push(e));
      combinations.push({ name: `${engine} over ${transport.name}`, app, client: await transport.open(app), events });
    }
  }
});

run.after(async () => {
  await Promise.all(combinations.map((c) => c.client.close()));
});

for (const p of planned) {
  const { method, path, body } = p.draft;
  run(`${p.label}: ${method} ${path}${body ? ` ${body}` : ''}`, async () => {
    const walks = await Promise.all(combinations.map((c) => walk(c, p.draft)));
    walks.forEach((w) => observed.push({ states: w.states, transitions: w.transitions }));
    walks.forEach((w, i) => check(p, combinations[i].name, w));
    const first = comparable(walks[0].response);
    walks.slice(1).forEach((w, i) => assert.equal(comparable(w.response), first, `${combinations[i + 1].name} answers as ${combinations[0].name} does`));
  });
}

run('the requests cover every state and every transition of the request machine', () => {
  const c = coverageOf(graph, observed);
  console.log(`  ${coverageLine(graph, c)} (${planned.length} requests along ${paths.length} paths, ${combinations.length} ways each)`);
  assert.equal(c.states.missing, [], 'states no request reached');
  assert.equal(c.transitions.missing, [], 'transitions no request took');
});

run.run();
