/**
 * Option objects are checked by name: a misspelt or snake_case key (the
 * transports' options are camelCase) is an error at start-up, not a limit
 * silently left at its default. Internal to the transports.
 */
import { ArgumentError } from '../core/errors.ts';

/** Throws an `ArgumentError` naming the first key of `options` that is not in `known`. */
export function checkOptionNames(owner: string, options: object, known: ReadonlySet<string>): void {
  for (const key of Object.keys(options)) {
    if (known.has(key)) continue;
    const camel = key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
    const hint = camel !== key && known.has(camel) ? ` (did you mean ${camel}?)` : '';
    throw new ArgumentError(`Unknown ${owner} option ${JSON.stringify(key)}${hint}`);
  }
}
