/**
 * The README's embedded machine diagrams: each sits between
 * `<!-- machines:<id>:start -->` and `<!-- machines:<id>:end -->` as a
 * fenced Mermaid block printed by `signalbox machines --format mermaid`.
 * `signalbox machines --update-readme` rewrites them; a test fails when one
 * is stale. Internal to the command.
 */
import { toMermaid } from '../machines/export.ts';
import type { MachineGraph } from '../machines/graph.ts';

export const markers = (id: string) => ({ start: `<!-- machines:${id}:start -->`, end: `<!-- machines:${id}:end -->` });

/** What belongs between the markers for `graph`. */
export function readmeDiagram(graph: MachineGraph): string {
  return `\`\`\`mermaid\n${toMermaid(graph)}\`\`\``;
}

/** Where `id`'s block lies: from just after its start marker to its end marker; null when the README has none. */
function blockAt(readme: string, id: string): { from: number; to: number } | null {
  const { start, end } = markers(id);
  const a = readme.indexOf(start);
  const b = readme.indexOf(end);
  return a < 0 || b < a ? null : { from: a + start.length, to: b };
}

/** The text between `id`'s markers (trimmed), or null when the README has no such block. */
export function readmeBlock(readme: string, id: string): string | null {
  const at = blockAt(readme, id);
  return at === null ? null : readme.slice(at.from, at.to).trim();
}

/** `readme` with `graph`'s block replaced; unchanged when it has no markers for it. */
export function withReadmeDiagram(readme: string, graph: MachineGraph): string {
  const at = blockAt(readme, graph.id);
  return at === null ? readme : `${readme.slice(0, at.from)}\n${readmeDiagram(graph)}\n${readme.slice(at.to)}`;
}
