/**
 * Which version of a file something was taken from, as `stat` tells it. A file replaced by
 * renaming another over it (as the caches write) has a new inode; one changed in place has a new
 * size or modification time. Whatever is kept beside a stamp (bytes, a digest) is good while the
 * file's stat still matches it.
 */
import type { Stats } from 'node:fs';

export interface FileStamp {
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
}

/** The stamp of the file `stat` describes. */
export function stampOf(stat: Stats): FileStamp {
  return { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs };
}

/** Whether `stat` describes the very version `stamp` was taken from (false for no stamp). */
export function sameVersion(stamp: FileStamp | null | undefined, stat: Stats): boolean {
  return stamp != null && stamp.ino === stat.ino && stamp.size === stat.size && stamp.mtimeMs === stat.mtimeMs;
}
