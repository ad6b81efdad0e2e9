/**
 * machineGraph: a machine's definition as plain data. For the request
 * machine every state and every transition of the definition is there, with
 * the event types the engines report in traces; for a machine with nesting,
 * parallel regions, `after`, `onDone` and inline implementations, each is
 * read as written.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { EXPORTED_MACHINES, createApp, exportedGraphs, machineGraph, requestMachine, type TraceEvent } from '../../machines/index.ts';
import { draw } from '../../core/index.ts';
import { nestedMachine } from './machines-fixture.ts';

const test = suite('machineGraph');

type TransitionConfig = { target: string; guard?: string; actions?: string | string[] };
const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

test('the request machine: every state of the definition, in order, with initial and final marked', () => {
  const graph = machineGraph(requestMachine);
  const config = requestMachine.config as { initial: string; states: Record<string, { type?: string; entry?: string; invoke?: { src: string } }> };
  assert.is(graph.id, 'request');
  assert.equal(graph.states.map((s) => s.id), Object.keys(config.states));
  assert.equal(graph.states.filter((s) => s.initial).map((s) => s.id), [config.initial]);
  assert.equal(graph.states.filter((s) => s.final).map((s) => s.id), ['done']);
  for (const s of graph.states) {
    const c = config.states[s.id];
    assert.is(s.key, s.id);
    assert.is(s.parent, null);
    assert.equal(s.entry, list(c.entry), `${s.id} entry`);
    assert.equal(s.invoke.map((i) => i.src), c.invoke ? [c.invoke.src] : [], `${s.id} invoke`);
  }
});

test('the request machine: every transition of the definition, with its guard, actions and event', () => {
  const graph = machineGraph(requestMachine);
  const config = requestMachine.config as { states: Record<string, { always?: TransitionConfig | TransitionConfig[]; invoke?: { src: string; onDone: TransitionConfig | TransitionConfig[]; onError: TransitionConfig | TransitionConfig[] } }> };
  const expected: string[] = [];
  for (const [from, s] of Object.entries(config.states)) {
    const add = (kind: string, spec: TransitionConfig | TransitionConfig[] | undefined) => {
      for (const t of list(spec)) expected.push(`${from} -> ${t.target} ${kind} [${t.guard ?? ''}] / ${list(t.actions).join(',')}`);
    };
    if (s.invoke) {
      add(`done.invoke.${s.invoke.src}`, s.invoke.onDone);
      add(`error.invoke.${s.invoke.src}`, s.invoke.onError);
    }
    add('always', s.always);
  }
  const actual = graph.transitions.map((t) => `${t.source} -> ${t.target} ${t.label} [${t.guard ?? ''}] / ${t.actions.join(',')}`);
  assert.equal(actual, expected);
  assert.equal(new Set(graph.transitions.map((t) => t.id)).size, graph.transitions.length, 'ids are unique');
  const routing = graph.transitions.filter((t) => t.source === 'recognizing');
  assert.equal(routing.map((t) => t.order), [0, 1, 2, 3], 'guards in the order they are tried');
  assert.ok(routing.every((t) => t.kind === 'always' && t.event === 'always'));
});

test('edges carry the very event types both engines put in trace events', async () => {
  const graph = machineGraph(requestMachine);
  const routes = draw((map) => map.connect(':controller/:action'), { controllers: [] });
  for (const engine of ['compiled', 'xstate'] as const) {
    const app = createApp({ routes, controllers: {}, engine, environment: 'test', logger: false });
    const seen: TraceEvent[] = [];
    app.trace((e) => seen.push(e));
    await app.handle({ method: 'GET', url: '/nowhere', headers: { host: 'test.host' } });
    await app.handle({ method: 'BREW', url: '/', headers: { host: 'test.host' } });
    const transitions = seen.filter((e) => e.kind === 'transition');
    assert.ok(transitions.length > 8, engine);
    for (const t of transitions) {
      const edge = graph.transitions.find((g) => g.source === t.from && g.target === t.to && g.event === t.event && g.guard === t.guard);
      assert.ok(edge, `${engine}: ${t.from} -> ${t.to} on ${t.event} [${t.guard}] has an edge`);
    }
  }
});

test('nesting, parallel regions, after, onDone, #id and .child targets, targetless and inline implementations', () => {
  const graph = machineGraph(nestedMachine, 'A door');
  assert.is(graph.title, 'A door');
  const state = (id: string) => graph.states.find((s) => s.id === id)!;
  assert.equal(graph.states.map((s) => `${s.id}:${s.type}${s.initial ? ':initial' : ''}`), [
    'closed:compound:initial', 'closed.locked:atomic:initial', 'closed.unlocked:atomic', 'closed.ajar:final',
    'open:parallel', 'open.hinge:compound', 'open.hinge.still:atomic:initial', 'open.hinge.swinging:atomic',
    'open.light:compound', 'open.light.off:atomic:initial', 'open.light.on:atomic', 'gone:final',
  ]);
  assert.is(state('open.hinge.swinging').parent, 'open.hinge');
  assert.is(state('open.hinge.swinging').key, 'swinging');
  assert.equal(state('closed').entry, ['track'], 'as written: no raise/cancel from after');
  assert.equal(state('closed').exit, ['log', 'track']);
  assert.equal(state('closed').notes, ['entry / track', 'exit / log, track'], 'notes as the exporters print them');
  assert.ok(state('gone').final && state('closed.ajar').final);
  const edge = (source: string, label: string) => graph.transitions.filter((t) => t.source === source && t.label === label);
  assert.equal(edge('closed', 'KNOCK').map((t) => [t.target, t.targetless, t.actions]), [['closed', true, ['log']]]);
  assert.equal(edge('closed', 'OPEN').map((t) => [t.target, t.guard]), [['open', 'ready']]);
  assert.equal(edge('closed', 'done.state.closed').map((t) => [t.target, t.kind]), [['open', 'state-done']]);
  assert.equal(edge('closed', 'after 500ms').map((t) => [t.target, t.kind]), [['closed.unlocked', 'after']]);
  assert.equal(edge('closed.locked', 'UNLOCK').map((t) => [t.target, t.guard, t.order]), [['closed.unlocked', 'ready', 0], ['closed.locked', null, 1]]);
  assert.equal(edge('open', 'SLAM').map((t) => [t.target, t.guard, t.actions]), [['closed', 'slammedHard', ['creak']]]);
  assert.equal(edge('open.light.off', 'TOGGLE').map((t) => t.target), ['open.light.on']);
});

test('exportedGraphs serialises every exported machine once', () => {
  assert.equal(exportedGraphs().map((g) => g.id), EXPORTED_MACHINES.map((m) => m.id));
  assert.is(exportedGraphs(), exportedGraphs());
  assert.equal(JSON.parse(JSON.stringify(exportedGraphs()[0])), machineGraph(requestMachine, EXPORTED_MACHINES[0].title), 'plain JSON data');
});

test.run();
