// One machine graph (machines/graph.ts, fetched as machines.json) laid out by elkjs and drawn as SVG:
// states as boxes (nested states inside their parent, each with the notes the graph gives it),
// transitions as labelled arrows, the initial state pointed at by a dot, final states with a double
// border. `elkGraph` is pure (no DOM) so the layout input can be checked outside a browser.

const SVG_NS = 'http://www.w3.org/2000/svg';
const NAME_FONT = '600 13px system-ui, -apple-system, "Segoe UI", sans-serif';
const NOTE_FONT = '11px system-ui, -apple-system, "Segoe UI", sans-serif';
const LABEL_FONT = '10.5px system-ui, -apple-system, "Segoe UI", sans-serif';
const LINE = { name: 17, note: 14, label: 13 };
const PAD = { x: 12, y: 8 };
const INITIAL_SIZE = 12;

/** An edge's label in two lines: the event, then `[guard] / actions` when there are any. */
export function edgeLabelLines(t) {
  const second = [t.guard !== null ? `[${t.guard}]` : '', t.actions.length > 0 ? `/ ${t.actions.join(', ')}` : ''].filter(Boolean).join(' ');
  return second === '' ? [t.label] : [t.label, second];
}

const initialId = (parent) => `__initial:${parent ?? ''}`;

/**
 * The ELK input for `graph`. `measure(text, font)` gives a text's width in pixels. Every coordinate
 * ELK returns is absolute (json.shapeCoords/edgeCoords ROOT), so drawing needs no nested transforms.
 */
export function elkGraph(graph, measure) {
  const childrenOf = (parent) => graph.states.filter((s) => s.parent === parent);
  const node = (state) => {
    const { notes } = state;
    const nested = childrenOf(state.id);
    const width = Math.max(measure(state.key, NAME_FONT), ...notes.map((n) => measure(n, NOTE_FONT))) + 2 * PAD.x;
    const height = LINE.name + notes.length * LINE.note + 2 * PAD.y;
    const out = { id: state.id, width: Math.ceil(width), height };
    if (nested.length > 0) {
      out.layoutOptions = { 'elk.padding': `[top=${height + 6},left=14,bottom=14,right=14]` };
      out.children = level(state.id);
    }
    return out;
  };
  const level = (parent) => {
    const states = childrenOf(parent);
    const nodes = states.map(node);
    if (states.some((s) => s.initial)) nodes.unshift({ id: initialId(parent), width: INITIAL_SIZE, height: INITIAL_SIZE });
    return nodes;
  };
  const edges = graph.states.filter((s) => s.initial).map((s) => ({ id: `__initial->${s.id}`, sources: [initialId(s.parent)], targets: [s.id] }));
  for (const t of graph.transitions) {
    const lines = edgeLabelLines(t);
    edges.push({
      id: t.id,
      sources: [t.source],
      targets: [t.target],
      labels: [{ text: lines.join('\n'), width: Math.ceil(Math.max(...lines.map((l) => measure(l, LABEL_FONT)))) + 6, height: lines.length * LINE.label + 2 }],
    });
  }
  return {
    id: `machine:${graph.id}`,
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      'elk.edgeRouting': 'ORTHOGONAL',
      'elk.edgeLabels.placement': 'CENTER',
      'elk.spacing.nodeNode': '28',
      'elk.spacing.edgeNode': '14',
      'elk.spacing.edgeEdge': '10',
      'elk.spacing.edgeLabel': '3',
      'elk.layered.spacing.nodeNodeBetweenLayers': '34',
      'elk.layered.spacing.edgeNodeBetweenLayers': '14',
      'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
      'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
      'elk.padding': '[top=12,left=12,bottom=12,right=12]',
      'org.eclipse.elk.json.shapeCoords': 'ROOT',
      'org.eclipse.elk.json.edgeCoords': 'ROOT',
    },
    children: level(null),
    edges,
  };
}

function el(name, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

function text(parent, x, y, content, className) {
  const t = el('text', { x, y, class: className }, parent);
  t.textContent = content;
  return t;
}

let canvas = null;
function measureText(content, font) {
  canvas ??= document.createElement('canvas').getContext('2d');
  canvas.font = font;
  return canvas.measureText(content).width;
}

/**
 * Lays out `graph` with `elk` (an `ELK` instance) and draws it. Returns the SVG and a `show(view)`
 * that highlights `{ active, visited: Set<stateId>, taken: Set<edgeId>, last }` (or clears with null).
 */
export async function drawMachine(graph, elk) {
  const layout = await elk.layout(elkGraph(graph, measureText));
  const svg = el('svg', { xmlns: SVG_NS, viewBox: `0 0 ${Math.ceil(layout.width)} ${Math.ceil(layout.height)}`, width: Math.ceil(layout.width), height: Math.ceil(layout.height), role: 'img', 'aria-label': `State diagram of the ${graph.id} machine`, 'data-machine': graph.id });
  const defs = el('defs', {}, svg);
  for (const kind of ['plain', 'taken']) {
    const marker = el('marker', { id: `arrow-${graph.id}-${kind}`, class: kind, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, defs);
    el('path', { d: 'M 0 0 L 10 5 L 0 10 z' }, marker);
  }
  const statesLayer = el('g', { class: 'states' }, svg);
  const edgesLayer = el('g', { class: 'edges' }, svg);
  const byId = new Map(graph.states.map((s) => [s.id, s]));
  const stateNodes = new Map();

  const drawNode = (n) => {
    if (n.id.startsWith('__initial:')) {
      const g = el('g', { class: 'initial-marker' }, statesLayer);
      el('circle', { cx: n.x + n.width / 2, cy: n.y + n.height / 2, r: n.width / 2 }, g);
      return;
    }
    const state = byId.get(n.id);
    const classes = ['state', state.type];
    if (n.children?.length) classes.push('compound');
    if (state.final) classes.push('final');
    if (state.initial) classes.push('initial');
    const g = el('g', { class: classes.join(' '), 'data-state': state.key, 'data-state-id': state.id }, statesLayer);
    el('title', {}, g).textContent = `${state.id} (${state.type})`;
    el('rect', { class: 'box', x: n.x, y: n.y, width: n.width, height: n.height, rx: 8, ry: 8 }, g);
    if (state.final) el('rect', { class: 'inner', x: n.x + 3, y: n.y + 3, width: n.width - 6, height: n.height - 6, rx: 6, ry: 6 }, g);
    let y = n.y + PAD.y + 13;
    text(g, n.x + PAD.x, y, state.key, 'name');
    for (const note of state.notes) {
      y += LINE.note;
      text(g, n.x + PAD.x, y, note, 'note');
    }
    stateNodes.set(state.id, g);
    for (const child of n.children ?? []) drawNode(child);
  };
  for (const n of layout.children) drawNode(n);

  const edgeNodes = new Map();
  for (const e of layout.edges) {
    const initial = e.id.startsWith('__initial->');
    const g = el('g', initial ? { class: 'initial-marker' } : { class: 'edge', 'data-edge': e.id, 'data-source': e.sources[0], 'data-target': e.targets[0] }, edgesLayer);
    let d = '';
    for (const s of e.sections ?? []) {
      d += `M ${s.startPoint.x} ${s.startPoint.y} `;
      for (const b of s.bendPoints ?? []) d += `L ${b.x} ${b.y} `;
      d += `L ${s.endPoint.x} ${s.endPoint.y} `;
    }
    const path = el('path', { d: d.trim(), 'marker-end': `url(#arrow-${graph.id}-plain)` }, g);
    if (initial) continue;
    const t = graph.transitions.find((x) => x.id === e.id);
    for (const label of e.labels ?? []) {
      const lines = edgeLabelLines(t);
      lines.forEach((line, i) => text(g, label.x + 3, label.y + 11 + i * LINE.label, line, i === 0 ? 'event' : 'guard'));
    }
    el('title', {}, g).textContent = `${t.source} → ${t.target}: ${edgeLabelLines(t).join(' ')}`;
    edgeNodes.set(e.id, { g, path });
  }

  return {
    svg,
    show(view) {
      for (const [id, g] of stateNodes) {
        g.classList.toggle('active', view !== null && view.active === id);
        g.classList.toggle('visited', view !== null && view.visited.has(id) && view.active !== id);
      }
      for (const [id, { g, path }] of edgeNodes) {
        const taken = view !== null && view.taken.has(id);
        g.classList.toggle('taken', taken);
        g.classList.toggle('last', taken && view.last === id);
        path.setAttribute('marker-end', `url(#arrow-${graph.id}-${taken ? 'taken' : 'plain'})`);
      }
    },
  };
}

/** The state id a trace names (traces use keys): the state with that id, else the only one with that key. */
export function resolveState(graph, name) {
  if (graph.states.some((s) => s.id === name)) return name;
  const matches = graph.states.filter((s) => s.key === name);
  return matches.length === 1 ? matches[0].id : null;
}

/** The edge a traced transition took: same ends, same event, same guard. */
export function resolveEdge(graph, step) {
  const from = resolveState(graph, step.from);
  const to = resolveState(graph, step.to);
  const edge = graph.transitions.find((t) => t.source === from && t.target === to && t.event === step.event && t.guard === step.guard);
  return edge ? edge.id : null;
}
