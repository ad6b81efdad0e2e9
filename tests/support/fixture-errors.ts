/**
 * The exception classes a request case names (`action.raise`, `setup.rescue_from`,
 * `setup.rescue_from_in_order`), made from the names alone, as the corpus
 * README describes them:
 * - `ActionController::X` is the framework's own error `X` (the Signalbox class of that name);
 * - `RuntimeError` is the generic error class itself (`Error`);
 * - any other name is a class the test controller defined: a direct subclass of the generic
 *   error, or of the raised class's `ancestors` (nearest first) when it is one of them.
 * Not a test file itself.
 */
import * as core from '../../core/index.ts';

export type ErrorClass = new (...args: any[]) => Error;

/** What `action.raise` says. */
export interface RaiseSpec {
  readonly class: string;
  readonly message?: string;
  readonly ancestors?: readonly string[];
  readonly allowed_methods?: readonly string[];
}

const FRAMEWORK = /^Action(?:Controller|View)::/;

/** How a name is looked up: the test's own classes without their Ruby module path. */
function key(name: string): string {
  return FRAMEWORK.test(name) ? name : name.replace(/^.*::/, '');
}

/** The framework's own class for an `ActionController::X` name. */
function frameworkClass(name: string): ErrorClass {
  const bare = name.replace(FRAMEWORK, '');
  const found = (core as Record<string, unknown>)[bare];
  if (typeof found !== 'function' || !(found.prototype instanceof Error)) {
    throw new Error(`the fixture knows no framework error ${JSON.stringify(name)} (no Signalbox class ${bare})`);
  }
  return found as ErrorClass;
}

/** A class the test controller defined for itself, named as Ruby names it (module path left off). */
function ownClass(name: string, parent: ErrorClass): ErrorClass {
  const bare = name.replace(/^.*::/, '');
  const made = class extends parent {
    constructor(message?: string) {
      super(message ?? bare);
      this.name = bare;
    }
  };
  // `rescue_from('Name')` matches the class chain by name.
  Object.defineProperty(made, 'name', { value: bare });
  return made;
}

/** The classes one case names, by the name the case uses. */
export class CaseErrors {
  readonly #classes = new Map<string, ErrorClass>();

  constructor(raise: RaiseSpec | undefined, named: readonly string[]) {
    if (raise) {
      // From the farthest ancestor down, so each class extends the one above it.
      let parent: ErrorClass = Error;
      for (const ancestor of [...(raise.ancestors ?? [])].reverse()) parent = this.#define(ancestor, parent);
      this.#define(raise.class, parent);
    }
    for (const name of named) this.#define(name, Error);
  }

  #define(name: string, parent: ErrorClass): ErrorClass {
    const known = this.#classes.get(key(name));
    if (known) return known;
    const made = FRAMEWORK.test(name) ? frameworkClass(name) : name === 'RuntimeError' ? Error : ownClass(name, parent);
    this.#classes.set(key(name), made);
    return made;
  }

  /** The class a case names (a qualified name finds the same class as an unqualified one). */
  get(name: string): ErrorClass {
    const found = this.#classes.get(key(name));
    if (!found) throw new Error(`the case names no error class ${JSON.stringify(name)}`);
    return found;
  }

  /** The exception `action.raise` describes: its message, or the allowed methods a framework error carries. */
  instance(raise: RaiseSpec): Error {
    const Cls = this.get(raise.class);
    if (raise.allowed_methods) return new Cls(raise.allowed_methods);
    return raise.message === undefined ? new Cls() : new Cls(raise.message);
  }
}

/** Every error class name a case's fields mention, besides the raised one and its ancestors. */
export function namedErrorClasses(setup: Record<string, any>): string[] {
  const names: string[] = [];
  for (const entry of (setup.rescue_from ?? []) as { class: string }[]) names.push(entry.class);
  for (const [joined] of (setup.rescue_from_in_order ?? []) as [string, number][]) {
    for (const name of inOrderNames(joined)) names.push(name);
  }
  return names;
}

/** `"A|B (child controller only)"`: the class names, and whether only the requested (child) controller declares them. */
export function inOrderEntry(joined: string): { names: string[]; childOnly: boolean } {
  const note = /\s*\(([^)]*)\)\s*$/.exec(joined);
  return { names: inOrderNames(joined), childOnly: note !== null && /child controller only/.test(note[1]) };
}

function inOrderNames(joined: string): string[] {
  return joined.replace(/\s*\([^)]*\)\s*$/, '').split('|').map((n) => n.trim()).filter(Boolean);
}
