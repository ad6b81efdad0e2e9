// Module resolution hook registered by run.ts: every import of 'uvu' gets the runner's own
// registration API (uvu.ts beside this file), so the runner sees each hook, test and run.
// Plain JavaScript: it is loaded in the module loader, before any TypeScript support applies.
const registry = new URL('./uvu.ts', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'uvu') return { url: registry, shortCircuit: true };
  return nextResolve(specifier, context);
}
