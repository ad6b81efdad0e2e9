/**
 * Prints a machine graph (machines/graph.ts) as a Mermaid state diagram
 * (`stateDiagram-v2`), as Graphviz DOT, or as JSON (the serialisation the
 * inspector page draws). `signalbox machines --format mermaid|dot|json`
 * prints every exported machine this way; the README embeds the request
 * machine's Mermaid diagram.
 *
 * Edge labels read `event [guard] / action, action` in both formats;
 * states list their entry/exit actions and invoked actors.
 *
 * @example
 *   console.log(toMermaid(machineGraph(requestMachine)))
 */
import type { GraphState, GraphTransition, MachineGraph } from './graph.ts';

export type ExportFormat = 'mermaid' | 'dot' | 'json';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['mermaid', 'dot', 'json'];

/** `event [guard] / actions`: how a transition reads on an edge. */
export function transitionLabel(t: GraphTransition): string {
  let label = t.label;
  if (t.guard !== null) label += ` [${t.guard}]`;
  if (t.actions.length > 0) label += ` / ${t.actions.join(', ')}`;
  return label;
}

function childrenOf(graph: MachineGraph, parent: string | null): GraphState[] {
  return graph.states.filter((s) => s.parent === parent);
}

const heading = (graph: MachineGraph): string => (graph.title === graph.id ? `machine ${graph.id}` : `machine ${graph.id} (${graph.title.replace(/[\r\n]/g, ' ')})`);

/** The innermost state strictly containing both `a` and `b` (null: the machine itself). */
function commonParent(graph: MachineGraph, a: string, b: string): string | null {
  const ancestors = (id: string): (string | null)[] => {
    const out: (string | null)[] = [];
    for (let p = graph.states.find((s) => s.id === id)?.parent ?? null; p !== null; p = graph.states.find((s) => s.id === p)?.parent ?? null) out.push(p);
    return [...out, null];
  };
  const ofB = new Set(ancestors(b));
  return ancestors(a).find((p) => ofB.has(p)) ?? null;
}

// Mermaid state ids are word characters, and one namespace for the whole diagram (nested ones included).
const mermaidId = (id: string): string => id.replace(/\./g, '__').replace(/\W/g, '_');
// `:` starts a label and `;` ends a statement; neither may appear inside one.
const mermaidText = (text: string): string => text.replace(/[:;\n\r#]/g, ' ').trim();

export function toMermaid(graph: MachineGraph): string {
  const lines = ['stateDiagram-v2', `  %% ${heading(graph)}, generated from its definition by \`signalbox machines\``];
  const emit = (parent: string | null, indent: string): void => {
    const children = childrenOf(graph, parent);
    const initial = children.find((s) => s.initial);
    if (initial) lines.push(`${indent}[*] --> ${mermaidId(initial.id)}`);
    for (const s of children) {
      const id = mermaidId(s.id);
      if (id !== s.key) lines.push(`${indent}state "${mermaidText(s.key)}" as ${id}`);
      const nested = childrenOf(graph, s.id);
      if (nested.length > 0) {
        lines.push(`${indent}state ${id} {`);
        emit(s.id, `${indent}  `);
        lines.push(`${indent}}`);
      }
      for (const note of s.notes) lines.push(`${indent}${id} : ${mermaidText(note)}`);
    }
    // An id a block mentions first is created inside that block: each edge goes in the block holding both its ends.
    for (const t of graph.transitions) {
      if (commonParent(graph, t.source, t.target) === parent) lines.push(`${indent}${mermaidId(t.source)} --> ${mermaidId(t.target)} : ${mermaidText(transitionLabel(t))}`);
    }
    for (const s of children) if (s.final) lines.push(`${indent}${mermaidId(s.id)} --> [*]`);
  };
  emit(null, '  ');
  return `${lines.join('\n')}\n`;
}

const dotString = (text: string): string => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n/g, '\\n')}"`;

export function toDot(graph: MachineGraph): string {
  const lines = [
    `digraph ${dotString(graph.id)} {`,
    `  // ${heading(graph)}, generated from its definition by \`signalbox machines\``,
    `  label=${dotString(graph.title)}; labelloc=t; compound=true; rankdir=TB;`,
    '  node [shape=box, style=rounded, fontname="Helvetica", fontsize=11];',
    '  edge [fontname="Helvetica", fontsize=9];',
  ];
  // An edge into or out of a compound state attaches to a point inside its cluster (lhead/ltail draw it to the border).
  const anchor = (id: string): string => `${id}.__anchor`;
  const compound = new Set(graph.states.filter((s) => childrenOf(graph, s.id).length > 0).map((s) => s.id));
  const node = (id: string): string => dotString(compound.has(id) ? anchor(id) : id);
  const emit = (parent: string | null, indent: string): void => {
    const children = childrenOf(graph, parent);
    const initial = children.find((s) => s.initial);
    const start = `${parent ?? ''}.__initial`;
    if (initial) {
      lines.push(`${indent}${dotString(start)} [shape=point, width=0.15, label=""];`);
      lines.push(`${indent}${dotString(start)} -> ${node(initial.id)}${compound.has(initial.id) ? ` [lhead=${dotString(`cluster_${initial.id}`)}]` : ''};`);
    }
    for (const s of children) {
      const label = [s.key, ...s.notes].join('\n');
      if (compound.has(s.id)) {
        lines.push(`${indent}subgraph ${dotString(`cluster_${s.id}`)} {`);
        lines.push(`${indent}  label=${dotString(label)}; style=${s.type === 'parallel' ? '"rounded,dashed"' : 'rounded'};`);
        lines.push(`${indent}  ${dotString(anchor(s.id))} [shape=point, style=invis, label=""];`);
        emit(s.id, `${indent}  `);
        lines.push(`${indent}}`);
      } else {
        lines.push(`${indent}${dotString(s.id)} [label=${dotString(label)}${s.final ? ', peripheries=2' : ''}];`);
      }
    }
  };
  emit(null, '  ');
  for (const t of graph.transitions) {
    const attrs = [`label=${dotString(transitionLabel(t))}`];
    // Clipping at a cluster's border only makes sense for the end outside it.
    const inside = (id: string, cluster: string): boolean => id === cluster || id.startsWith(`${cluster}.`);
    if (compound.has(t.source) && !inside(t.target, t.source)) attrs.push(`ltail=${dotString(`cluster_${t.source}`)}`);
    if (compound.has(t.target) && !inside(t.source, t.target)) attrs.push(`lhead=${dotString(`cluster_${t.target}`)}`);
    lines.push(`  ${node(t.source)} -> ${node(t.target)} [${attrs.join(', ')}];`);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

/** Every graph in one JSON array: the document the inspector page fetches. */
export function toJson(graphs: readonly MachineGraph[]): string {
  return `${JSON.stringify(graphs, null, 2)}\n`;
}

/** The machines in `format`: Mermaid and DOT print one diagram after another, JSON one array. */
export function exportMachines(graphs: readonly MachineGraph[], format: ExportFormat): string {
  if (format === 'json') return toJson(graphs);
  const print = format === 'mermaid' ? toMermaid : toDot;
  return graphs.map(print).join('\n');
}
