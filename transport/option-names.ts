/**
 * Option objects are checked by name: a misspelt or snake_case key (the
 * transports' options are camelCase) is an error at start-up, not a limit
 * silently left at its default. Internal to the transports.
 */
import { ArgumentError } from '../core/errors.ts';
import { unknownOption } from '../core/util.ts';

/** Throws an `ArgumentError` naming the first key of `options` that is not in `known`. */
export function checkOptionNames(owner: string, options: object, known: ReadonlySet<string>): void {
  const unknown = unknownOption(owner, options, known);
  if (unknown !== null) throw new ArgumentError(unknown);
}
