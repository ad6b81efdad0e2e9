/**
 * The page's own logic, outside a browser: the request log built from trace
 * events (steps, the transition into each, timing, eviction), the view a
 * replay shows at each step, and the ELK input for every exported machine,
 * laid out by elkjs itself with every state and every transition placed.
 * (tests/transport/inspect/browser.test.ts drives the real page.)
 */
import { createRequire } from 'node:module';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { exportedGraphs, machineGraph, type MachineGraph } from '../../../machines/index.ts';
import type { WireTraceEvent } from '../../../transport/index.ts';
import { nestedMachine } from '../../machines/machines-fixture.ts';
import { inspectedApp } from './support.ts';

const test = suite('the inspector page, in Node');

interface Step { state: string; via: { from: string; to: string; event: string; guard: string | null } | null; at: number }
interface LoggedRequest { id: string; method: string; path: string; transport: string; machine: string; steps: Step[]; status: number | null; ms: number | null; done: boolean }
interface View { active: string | null; visited: Set<string>; taken: Set<string>; last: string | null }
type Resolve = (graph: MachineGraph, name: string) => string | null;
type ResolveEdge = (graph: MachineGraph, step: NonNullable<Step['via']>) => string | null;
interface ElkNode { id: string; x?: number; y?: number; width?: number; height?: number; children?: ElkNode[]; edges?: ElkEdge[] }
interface ElkEdge { id: string; sources: string[]; targets: string[]; sections?: unknown[]; labels?: { text: string; x?: number }[] }

// Plain browser modules, loaded as they are served (no types of their own).
const page = (name: string) => import(new URL(`../../../transport/inspect/page/${name}`, import.meta.url).href);
const traces = (await page('traces.js')) as {
  RequestLog: new (max?: number) => { add(e: WireTraceEvent): LoggedRequest | null; list(): LoggedRequest[]; get(id: string): LoggedRequest | null; clear(): void };
  viewAt(request: LoggedRequest, index: number | undefined, graph: MachineGraph, resolveState: Resolve, resolveEdge: ResolveEdge): View;
};
const diagram = (await page('diagram.js')) as {
  elkGraph(graph: MachineGraph, measure: (text: string, font: string) => number): ElkNode;
  resolveState: Resolve;
  resolveEdge: ResolveEdge;
};
const ELK = createRequire(import.meta.url)('elkjs/lib/elk.bundled.js') as new () => { layout(graph: ElkNode): Promise<ElkNode> };

const REQUEST = exportedGraphs().find((g) => g.id === 'request')!;

/** Real trace events for a request, as the trace channel would send them (sanitised). */
async function traced(url: string, transport = 'http'): Promise<WireTraceEvent[]> {
  const { sanitiseTraceEvent } = await import('../../../transport/index.ts');
  const app = inspectedApp();
  const events: WireTraceEvent[] = [];
  app.trace((e) => events.push(sanitiseTraceEvent(e)!));
  await app.handle({ method: 'GET', url, headers: { host: 'test.host' }, transport });
  return events;
}

test('the log turns events into steps: each state with the transition into it and its time', async () => {
  const log = new traces.RequestLog();
  const events = await traced('/nope', 'tunnel');
  let last: LoggedRequest | null = null;
  for (const e of events) last = log.add(e);
  const request = last!;
  assert.equal([request.method, request.path, request.transport, request.machine, request.status, request.done], ['GET', '/nope', 'tunnel', 'request', 404, true]);
  assert.equal(request.steps.map((s) => s.state), ['servingPublic', 'parsing', 'negotiating', 'checkingForgery', 'recognizing', 'routingError', 'responding', 'done']);
  assert.is(request.steps[0].via, null, 'the initial state is entered by no transition');
  assert.equal(request.steps[5].via, { from: 'recognizing', to: 'routingError', event: 'always', guard: null });
  assert.is(request.steps[2].via!.event, 'xstate.done.actor.0.request.parsing');
  assert.ok(request.steps.every((s, i) => s.at >= 0 && (i === 0 || s.at >= request.steps[i - 1].at)), 'times from the request\'s start');
  assert.is(log.add({ kind: 'done', id: 'unknown', status: 200, ms: 1, t: 1 }), null, 'events of an unknown request are ignored');
});

test('the log keeps the newest requests, newest first', () => {
  const log = new traces.RequestLog(3);
  for (let i = 1; i <= 5; i++) log.add({ kind: 'request', id: `r${i}`, machine: 'request', method: 'GET', path: `/${i}`, transport: 'http', t: i });
  assert.equal(log.list().map((r) => r.id), ['r5', 'r4', 'r3']);
  assert.is(log.get('r1'), null);
  log.add({ kind: 'request', id: 'r4', machine: 'request', method: 'GET', path: '/4', transport: 'http', t: 9 });
  assert.is(log.get('r4')!.steps.length, 0, 'a repeated request event (a page reconnecting) starts the request afresh');
  log.clear();
  assert.equal(log.list(), []);
});

test('a replay view at each step: active state, visited states, transitions taken so far', async () => {
  const log = new traces.RequestLog();
  let request: LoggedRequest | null = null;
  for (const e of await traced('/echo/show')) request = log.add(e) ?? request;
  const first = traces.viewAt(request!, 0, REQUEST, diagram.resolveState, diagram.resolveEdge);
  assert.equal([first.active, [...first.visited], [...first.taken], first.last], ['servingPublic', ['servingPublic'], [], null]);
  const sixth = traces.viewAt(request!, 5, REQUEST, diagram.resolveState, diagram.resolveEdge);
  assert.is(sixth.active, 'dispatching');
  assert.equal([...sixth.taken], ['servingPublic#1', 'parsing#0', 'negotiating#0', 'checkingForgery#0', 'recognizing#0']);
  assert.is(sixth.last, 'recognizing#0', 'the edge just taken');
  const end = traces.viewAt(request!, undefined, REQUEST, diagram.resolveState, diagram.resolveEdge);
  assert.is(end.active, 'done');
  assert.is(end.taken.size, 8);
  assert.ok([...end.taken].every((id) => REQUEST.transitions.some((t) => t.id === id)));
});

test('trace names resolve to graph ids: keys when unique, full ids when nested', () => {
  const nested = machineGraph(nestedMachine);
  assert.is(diagram.resolveState(REQUEST, 'parsing'), 'parsing');
  assert.is(diagram.resolveState(nested, 'swinging'), 'open.hinge.swinging');
  assert.is(diagram.resolveState(nested, 'open.light.on'), 'open.light.on');
  assert.is(diagram.resolveState(nested, 'nowhere'), null);
  assert.is(diagram.resolveEdge(REQUEST, { from: 'rendering', to: 'notModified', event: 'always', guard: 'isFresh' }), 'rendering#0');
  assert.is(diagram.resolveEdge(REQUEST, { from: 'rendering', to: 'notModified', event: 'always', guard: 'other' }), null);
  assert.equal(REQUEST.states[1].notes, ['invoke parseRequest'], 'the page draws the notes the graph carries');
});

for (const graph of [...exportedGraphs(), machineGraph(nestedMachine)]) {
  test(`${graph.id}: elkjs lays out every state (nested inside its parent) and every transition`, async () => {
    const input = diagram.elkGraph(graph, (text) => text.length * 7);
    const layout = await new ELK().layout(input);
    const placed = new Map<string, { node: ElkNode; parent: string | null }>();
    const walk = (nodes: ElkNode[] | undefined, parent: string | null) => {
      for (const n of nodes ?? []) {
        placed.set(n.id, { node: n, parent });
        walk(n.children, n.id);
      }
    };
    walk(layout.children, null);
    for (const s of graph.states) {
      const p = placed.get(s.id);
      assert.ok(p, `state ${s.id} placed`);
      assert.is(p!.parent, s.parent, `${s.id} nested in ${s.parent}`);
      assert.ok(Number.isFinite(p!.node.x) && Number.isFinite(p!.node.y) && p!.node.width! > 0);
      if (s.parent !== null) {
        const outer = placed.get(s.parent)!.node;
        assert.ok(p!.node.x! >= outer.x! && p!.node.x! + p!.node.width! <= outer.x! + outer.width!, `${s.id} drawn inside ${s.parent}`);
      }
    }
    const initials = graph.states.filter((s) => s.initial);
    assert.is([...placed.keys()].filter((id) => id.startsWith('__initial:')).length, initials.length, 'one start dot per initial state');
    const edges = new Map((layout.edges ?? []).map((e) => [e.id, e]));
    for (const t of graph.transitions) {
      const e = edges.get(t.id);
      assert.ok(e && (e.sections?.length ?? 0) > 0, `transition ${t.id} routed`);
      assert.ok(Number.isFinite(e!.labels?.[0]?.x), `transition ${t.id} labelled`);
      assert.ok(e!.labels![0].text.startsWith(t.label), t.id);
      if (t.guard) assert.ok(e!.labels![0].text.includes(`[${t.guard}]`), `guard of ${t.id}`);
    }
  });
}

test.run();
