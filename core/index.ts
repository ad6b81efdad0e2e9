/** Signalbox's core: routing and the request layer. Never imports XState. */
export * from './routing/index.ts';
export * from './errors.ts';
