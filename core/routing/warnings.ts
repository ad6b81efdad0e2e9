/**
 * Warnings routing gives a developer while a routes file is drawn: each once per process, and none in
 * test or production, where a routes file that Rails 2.1 accepted must draw quietly.
 */
const shown = new Set<string>();

/** Emits `message` as a process warning with `code`, once per `key`, outside test and production. */
export function developmentWarning(code: string, key: string, message: string): void {
  const env = process.env.NODE_ENV;
  if (env === 'production' || env === 'test') return;
  if (shown.has(key)) return;
  shown.add(key);
  process.emitWarning(message, { code });
}
