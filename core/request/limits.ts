/**
 * Limits on what request parameters may cost. Every parser enforces them;
 * a count or depth over its limit is a 400, a size over its limit a 413.
 * Internal to `core/request/`; `ParamLimits` is re-exported by `params.ts`.
 */

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

/** The defaults: depth 32, 1000 keys, arrays of 1000, 1 MB bodies; multipart 100 parts, 10 files of 10 MB, fields of 1 MB. */
export const DEFAULT_PARAM_LIMITS: ResolvedParamLimits = Object.freeze({
  depth: 32,
  keys: 1000,
  arrayLength: 1000,
  bodyBytes: MB,
  multipart: Object.freeze({ parts: 100, files: 10, fileBytes: 10 * MB, fieldBytes: MB }),
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
    },
  };
}
