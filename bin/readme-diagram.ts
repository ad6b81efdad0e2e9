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

/** The text between `id`'s markers (trimmed), or null when the README has no such block. */
export function readmeBlock(readme: string, id: string): string | null {
  const { start, end } = markers(id);
  const a = readme.indexOf(start);
  const b = readme.indexOf(end);
  if (a < 0 || b < a) return null;
  return readme.slice(a + start.length, b).trim();
}

/** `readme` with `graph`'s block replaced; unchanged when it has no markers for it. */
export function withReadmeDiagram(readme: string, graph: MachineGraph): string {
  const { start, end } = markers(graph.id);
  const a = readme.indexOf(start);
  const b = readme.indexOf(end);
  if (a < 0 || b < a) return readme;
  return `${readme.slice(0, a + start.length)}\n${readmeDiagram(graph)}\n${readme.slice(b)}`;
}
