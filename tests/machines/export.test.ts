/**
 * The exporters, on every exported machine and on a machine with nesting:
 * Mermaid (`stateDiagram-v2`) and DOT print every state and every
 * transition with its event, guard and actions, and mark the initial and
 * final states; JSON is the graph itself.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { exportedGraphs, exportMachines, machineGraph, toDot, toJson, toMermaid, transitionLabel, type MachineGraph } from '../../machines/index.ts';
import { nestedMachine } from './machines-fixture.ts';

const test = suite('machine export');

const GRAPHS: MachineGraph[] = [...exportedGraphs(), machineGraph(nestedMachine)];
const mermaidId = (id: string) => id.replace(/\./g, '__');

for (const graph of GRAPHS) {
  test(`${graph.id}: Mermaid has every state and transition, guards shown, initial and final marked`, () => {
    const text = toMermaid(graph);
    const lines = text.split('\n').map((l) => l.trim());
    assert.is(lines[0], 'stateDiagram-v2');
    assert.ok(text.endsWith('\n'));
    for (const s of graph.states) {
      assert.ok(lines.some((l) => l.startsWith(`${mermaidId(s.id)} `) || l.includes(` ${mermaidId(s.id)} `) || l.endsWith(` ${mermaidId(s.id)}`)), `state ${s.id}`);
      if (s.initial) assert.ok(lines.includes(`[*] --> ${mermaidId(s.id)}`), `initial ${s.id}`);
      if (s.final) assert.ok(lines.includes(`${mermaidId(s.id)} --> [*]`), `final ${s.id}`);
      if (mermaidId(s.id) !== s.key) assert.ok(lines.includes(`state "${s.key}" as ${mermaidId(s.id)}`), `label of ${s.id}`);
    }
    for (const t of graph.transitions) {
      assert.ok(lines.includes(`${mermaidId(t.source)} --> ${mermaidId(t.target)} : ${transitionLabel(t)}`), `transition ${t.id}`);
    }
    const arrows = lines.filter((l) => l.includes(' --> ') && !l.startsWith('[*]') && !l.endsWith('[*]'));
    assert.is(arrows.length, graph.transitions.length, 'one line per transition');
    assert.is(lines.filter((l) => l.startsWith('[*] -->')).length, graph.states.filter((s) => s.initial).length);
    assert.is((text.match(/\{/g) ?? []).length, (text.match(/\}/g) ?? []).length, 'balanced blocks');
    assert.not.match(text.split('\n').slice(2).join('\n'), /;/, 'no statement separators inside labels');
  });

  test(`${graph.id}: DOT has every state and transition, guards shown, initial and final marked`, () => {
    const text = toDot(graph);
    assert.match(text, new RegExp(`^digraph "${graph.id}" \\{`));
    assert.ok(text.trimEnd().endsWith('}'));
    assert.is((text.match(/\{/g) ?? []).length, (text.match(/\}/g) ?? []).length, 'balanced blocks');
    const compound = new Set(graph.states.filter((s) => graph.states.some((c) => c.parent === s.id)).map((s) => s.id));
    const node = (id: string) => (compound.has(id) ? `"${id}.__anchor"` : `"${id}"`);
    for (const s of graph.states) {
      if (compound.has(s.id)) assert.ok(text.includes(`subgraph "cluster_${s.id}" {`), `cluster ${s.id}`);
      else assert.match(text, new RegExp(`\\n\\s*"${s.id.replace(/\./g, '\\.')}" \\[label="${s.key}[^"]*"${s.final ? ', peripheries=2' : ''}\\];`), `state ${s.id}`);
      if (s.initial) assert.ok(text.includes(`"${s.parent ?? ''}.__initial" -> ${node(s.id)}`), `initial ${s.id}`);
    }
    for (const t of graph.transitions) {
      assert.ok(text.includes(`${node(t.source)} -> ${node(t.target)} [label="${transitionLabel(t)}"`), `transition ${t.id}`);
    }
  });

  test(`${graph.id}: JSON is the graph`, () => {
    assert.equal(JSON.parse(toJson([graph])), [JSON.parse(JSON.stringify(graph))]);
  });
}

test('labels read event [guard] / actions', () => {
  const graph = machineGraph(nestedMachine);
  const labels = graph.transitions.map(transitionLabel);
  assert.ok(labels.includes('UNLOCK [ready] / log'));
  assert.ok(labels.includes('SLAM [slammedHard] / creak'));
  assert.ok(labels.includes('KNOCK / log'));
  assert.ok(labels.includes('after 500ms'));
  const request = exportedGraphs()[0];
  assert.ok(request.transitions.map(transitionLabel).includes('error.invoke.parseRequest [isUnknownMethod] / storeError'));
});

test('DOT quotes what needs quoting; Mermaid keeps labels on one line', () => {
  const graph: MachineGraph = {
    id: 'q"m', title: 'Quote "this"\nplease',
    states: [
      { id: 'a', key: 'a', parent: null, type: 'atomic', initial: true, final: false, entry: ['say "hi"'], exit: [], invoke: [], notes: ['entry / say "hi"'], description: null },
      { id: 'b', key: 'b', parent: null, type: 'final', initial: false, final: true, entry: [], exit: [], invoke: [], notes: [], description: null },
    ],
    transitions: [{ id: 'a#0', source: 'a', target: 'b', event: 'GO: now; then', kind: 'event', label: 'GO: now; then', guard: 'x\\y', actions: [], targetless: false, order: 0 }],
  };
  const dot = toDot(graph);
  assert.ok(dot.startsWith('digraph "q\\"m" {'));
  assert.ok(dot.includes('label="a\\nentry / say \\"hi\\""'));
  assert.ok(dot.includes('[label="GO: now; then [x\\\\y]"]'));
  const mermaid = toMermaid(graph);
  assert.ok(mermaid.includes('a --> b : GO  now  then [x\\y]'));
  assert.is(mermaid.split('\n')[1].includes('please'), true, 'the title stays on the comment line');
});

test('exportMachines prints each machine in turn; JSON as one array', () => {
  const two = [exportedGraphs()[0], machineGraph(nestedMachine)];
  const mermaid = exportMachines(two, 'mermaid');
  assert.is(mermaid.match(/^stateDiagram-v2$/gm)?.length, 2);
  assert.is(exportMachines(two, 'dot').match(/^digraph /gm)?.length, 2);
  assert.equal((JSON.parse(exportMachines(two, 'json')) as MachineGraph[]).map((g) => g.id), ['request', 'door']);
});

test.run();
