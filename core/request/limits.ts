/**
 * Limits on what request parameters may cost. Every parser enforces them;
 * a count or depth over its limit is a 400, a size over its limit a 413.
 * Internal to `core/request/`; `ParamLimits` is re-exported by `params.ts`.
 */
import { shownValue } from '../options.ts';

/** Per-part limits for multipart bodies. */
export interface MultipartLimits {
  /** Parts in one body (fields and files). Default 100. */
  parts?: number;
  /** File parts in one body. Default 10. */
  files?: number;
  /** Bytes in one file. Default 10 MB. */
  fileBytes?: number;
  /** Bytes in one non-file field. Default 1 MB. */
  fieldBytes?: number;
  /**
   * Bytes of one upload held in memory; a larger upload is streamed to a temporary file, removed
   * when the request ends (Rails 2.1's Tempfile threshold). Default 10 KB.
   */
  memoryBytes?: number;
}

/** Parameter limits; every field is optional and defaults as documented. */
export interface ParamLimits {
  /** Nesting levels below a top-level key (`a[b][c]` is 2). Default 32. */
  depth?: number;
  /** Parameters in one query, form, JSON or XML body. Default 1000. */
  keys?: number;
  /** Elements in one array. Default 1000. */
  arrayLength?: number;
  /** Bytes in a url-encoded, JSON or XML body (and in a query string). Default 1 MB. */
  bodyBytes?: number;
  multipart?: MultipartLimits;
}

/** Limits with every default filled in. */
export interface ResolvedParamLimits {
  readonly depth: number;
  readonly keys: number;
  readonly arrayLength: number;
  readonly bodyBytes: number;
  readonly multipart: Readonly<Required<MultipartLimits>>;
}

const MB = 1024 * 1024;

/** The defaults: depth 32, 1000 keys, arrays of 1000, 1 MB bodies; multipart 100 parts, 10 files of 10 MB, fields of 1 MB, uploads over 10 KB in files. */
export const DEFAULT_PARAM_LIMITS: ResolvedParamLimits = Object.freeze({
  depth: 32,
  keys: 1000,
  arrayLength: 1000,
  bodyBytes: MB,
  multipart: Object.freeze({ parts: 100, files: 10, fileBytes: 10 * MB, fieldBytes: MB, memoryBytes: 10 * 1024 }),
});

/** `limits` with defaults for whatever it leaves out. */
export function resolveParamLimits(limits: ParamLimits = {}): ResolvedParamLimits {
  const d = DEFAULT_PARAM_LIMITS;
  const m = limits.multipart ?? {};
  return {
    depth: limits.depth ?? d.depth,
    keys: limits.keys ?? d.keys,
    arrayLength: limits.arrayLength ?? d.arrayLength,
    bodyBytes: limits.bodyBytes ?? d.bodyBytes,
    multipart: {
      parts: m.parts ?? d.multipart.parts,
      files: m.files ?? d.multipart.files,
      fileBytes: m.fileBytes ?? d.multipart.fileBytes,
      fieldBytes: m.fieldBytes ?? d.multipart.fieldBytes,
      memoryBytes: m.memoryBytes ?? d.multipart.memoryBytes,
    },
  };
}

const LIMIT_KEYS: ReadonlySet<string> = new Set(['depth', 'keys', 'arrayLength', 'bodyBytes', 'multipart']);
const MULTIPART_KEYS: ReadonlySet<string> = new Set(['parts', 'files', 'fileBytes', 'fieldBytes', 'memoryBytes']);

/**
 * What is wrong with `limits` as `config.limits`, or null. Each limit is a whole number, 0 or more: a limit
 * that is NaN, negative or text compares false with every size, so a misspelt or mistyped one would leave
 * that cost unbounded rather than at its default.
 */
export function limitsProblem(limits: unknown): string | null {
  if (limits === undefined) return null;
  if (limits === null || typeof limits !== 'object' || Array.isArray(limits)) return 'config.limits must be an object';
  for (const [key, value] of Object.entries(limits)) {
    if (!LIMIT_KEYS.has(key)) return `Unknown config.limits key ${JSON.stringify(key)} (limits are ${[...LIMIT_KEYS].join(', ')})`;
    if (key === 'multipart') {
      if (value === undefined) continue;
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'config.limits.multipart must be an object';
      for (const [part, size] of Object.entries(value as object)) {
        if (!MULTIPART_KEYS.has(part)) return `Unknown config.limits.multipart key ${JSON.stringify(part)} (they are ${[...MULTIPART_KEYS].join(', ')})`;
        if (size !== undefined && !isCount(size)) return `config.limits.multipart.${part} must be a whole number, 0 or more, not ${shownValue(size)}`;
      }
    } else if (value !== undefined && !isCount(value)) {
      return `config.limits.${key} must be a whole number, 0 or more, not ${shownValue(value)}`;
    }
  }
  return null;
}

const isCount = (value: unknown): boolean => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
