/**
 * `signalbox machines`: every exported machine as Mermaid, DOT or JSON, from
 * the real command; and the README's request machine diagram is exactly what
 * the command prints today (regenerate it with `npm run machines -- --update-readme`).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT, signalbox } from './support.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportedGraphs, exportMachines, toMermaid } from '../../machines/index.ts';
import { markers, readmeBlock, readmeDiagram, withReadmeDiagram } from '../../bin/readme-diagram.ts';

// Each command starts node and tsx; run them side by side once, then check each result.
const results = Promise.all([
  signalbox('machines'),
  signalbox('machines', '--format', 'dot'),
  signalbox('machines', '--format=json'),
  signalbox('machines', '--format', 'mermaid', '--machine', 'request'),
  signalbox('machines', '--format', 'svg'),
  signalbox('machines', '--machine', 'nope'),
  signalbox('machines', '--format'),
]);

test('machines prints every exported machine, Mermaid by default, DOT and JSON on request', async () => {
  const [mermaid, dot, json, one] = await results;
  for (const r of [mermaid, dot, json, one]) assert.is(r.code, 0, r.stderr);
  const graphs = exportedGraphs();
  assert.is(mermaid.stdout, exportMachines(graphs, 'mermaid'));
  assert.is(dot.stdout, exportMachines(graphs, 'dot'));
  assert.equal(JSON.parse(json.stdout), JSON.parse(JSON.stringify(graphs)));
  assert.is(one.stdout, toMermaid(graphs.find((g) => g.id === 'request')!));
});

test('machines refuses an unknown format or machine, and a flag without its value', async () => {
  const [, , , , svg, nope, bare] = await results;
  assert.is(svg.code, 2);
  assert.match(svg.stderr, /unknown format "svg" \(mermaid, dot or json\)/);
  assert.is(nope.code, 2);
  assert.match(nope.stderr, /no machine "nope"; exported: request/);
  assert.is(bare.code, 2);
  assert.match(bare.stderr, /--format needs a value/);
});

test('the README\'s request machine diagram is the one `signalbox machines` prints today', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const graph = exportedGraphs().find((g) => g.id === 'request')!;
  const block = readmeBlock(readme, 'request');
  assert.ok(block !== null, `README.md has no ${markers('request').start} ... ${markers('request').end} block`);
  if (block !== readmeDiagram(graph)) {
    assert.unreachable('README.md\'s request machine diagram is stale: run `npm run machines -- --update-readme` (or paste the output of `npm run machines -- --format mermaid --machine request` into a ```mermaid block between the markers)');
  }
});

test('withReadmeDiagram replaces only the block between the markers', () => {
  const graph = exportedGraphs()[0];
  const { start, end } = markers(graph.id);
  const before = `# Title\n\nintro\n\n${start}\nold diagram\n${end}\n\nafter\n`;
  const after = withReadmeDiagram(before, graph);
  assert.is(after, `# Title\n\nintro\n\n${start}\n${readmeDiagram(graph)}\n${end}\n\nafter\n`);
  assert.is(withReadmeDiagram(after, graph), after, 'idempotent');
  assert.is(readmeBlock(after, graph.id), readmeDiagram(graph));
  assert.is(withReadmeDiagram('no markers', graph), 'no markers');
  assert.is(readmeBlock('no markers', graph.id), null);
  assert.is(readmeBlock(`${end} ${start}`, graph.id), null, 'markers out of order');
});

test.run();
