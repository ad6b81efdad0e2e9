/** The request machine, its engines, and `createApp`. */
export { createApp, type App, type CreateAppOptions, type Engine } from './app.ts';
export { requestMachine, type RequestMachine } from './request.machine.ts';
export { requestSetup } from './request.setup.ts';
export { compileMachine, CompiledMachine, MachineCompileError, type CompileOptions } from './compile.ts';
export { machineTable, type MachineTable, type TableState, type TableTransition, type TableInvoke, type Named } from './table.ts';
export { runWithXState } from './engine-xstate.ts';
export { Tracer, type TraceEvent, type TraceListener } from './trace.ts';
export { machineGraph, stateNotes, type MachineGraph, type GraphState, type GraphTransition, type GraphStateType, type GraphTransitionKind } from './graph.ts';
export { toMermaid, toDot, toJson, exportMachines, transitionLabel, EXPORT_FORMATS, type ExportFormat } from './export.ts';
export { EXPORTED_MACHINES, exportedGraphs, type ExportedMachine } from './registry.ts';
