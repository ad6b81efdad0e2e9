/**
 * The machines Signalbox exports for drawing: the inspector page draws each
 * one, and `signalbox machines` prints each one. A new machine (a tunnel
 * connection machine, say) is drawn and exported once it is listed here.
 */
import type { AnyStateMachine } from 'xstate';
import { machineGraph, type MachineGraph } from './graph.ts';
import { requestMachine } from './request.machine.ts';

export interface ExportedMachine {
  /** The machine's id, as trace events name it (`machine` of a `request` event). */
  readonly id: string;
  /** One line saying what it is, shown above its diagram. */
  readonly title: string;
  readonly machine: AnyStateMachine;
}

export const EXPORTED_MACHINES: readonly ExportedMachine[] = Object.freeze([
  { id: requestMachine.id, title: 'The request machine: every request, HTTP or tunnelled', machine: requestMachine },
]);

let graphs: readonly MachineGraph[] | null = null;

/** Every exported machine as a graph (serialised once: definitions do not change at run time). */
export function exportedGraphs(): readonly MachineGraph[] {
  graphs ??= Object.freeze(EXPORTED_MACHINES.map((m) => machineGraph(m.machine, m.title)));
  return graphs;
}
