/**
 * Functions written as source text, where the process allows it.
 *
 * Routing and the compiled engine write a few hot functions out as JavaScript once (the tree's
 * parameter readers, the named and hash generators, the request walk), so that V8 sees straight-line
 * code. A process started with `--disallow-code-generation-from-strings`, as hardened deployments
 * run, refuses `new Function` with an EvalError. Each of those callers has an interpreted form that
 * gives the same answers from the same data, and takes it when `functionFromSource` answers null:
 * slower, never a failure at import or on a request.
 */

/** Known once the first function was asked for: whether this process refuses code generation from strings. */
let refused = false;

/**
 * `new Function(...params, body)`, or null when this process forbids generating code from strings
 * (then the caller uses its interpreted form). Any other error (a syntax error in `body`) is thrown:
 * that is a bug in the caller, not a setting.
 * @example functionFromSource<(a: number) => number>(['a'], 'return a + 1;')?.(1) // 2, or undefined when refused
 */
export function functionFromSource<F extends (...args: never[]) => unknown>(params: readonly string[], body: string): F | null {
  if (refused) return null;
  try {
    // eslint-disable-next-line no-new-func -- the one place source becomes a function; callers embed data with JSON.stringify only
    return new Function(...params, body) as F;
  } catch (error) {
    if (!(error instanceof EvalError)) throw error;
    refused = true;
    return null;
  }
}

let generates: boolean | null = null;

/** Whether this process generates code from strings (false under `--disallow-code-generation-from-strings`); asked once. */
export function generatesCode(): boolean {
  return (generates ??= functionFromSource(['x'], 'return x;') !== null);
}
