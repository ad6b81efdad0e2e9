/**
 * The two ways a routes file falls short of a port (internal to `signalbox port-routes`).
 *
 * `RubySyntaxError` is the only thing the lexer and parser throw: the file is not Ruby, so none of it is
 * ported (Ruby would not run any of it either). `NotPorted` is raised while evaluating one statement that
 * is valid Ruby but not something the porter can know the result of; that statement is left out and
 * reported, and the rest of the file is still ported.
 */

/** The file is not valid Ruby (as far as the routes-file subset goes); `line` is 1-based. */
export class RubySyntaxError extends Error {
  readonly code = 'SBX_ERR_RUBY_SYNTAX';
  readonly line: number;

  constructor(message: string, line: number) {
    super(message);
    this.name = 'RubySyntaxError';
    this.line = line;
  }
}

/** A statement whose result cannot be known without running code the porter does not have. */
export class NotPorted extends Error {
  readonly code = 'SBX_ERR_NOT_PORTED';

  constructor(reason: string) {
    super(reason);
    this.name = 'NotPorted';
  }
}
