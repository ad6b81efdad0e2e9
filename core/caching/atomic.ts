/**
 * Atomic file replacement: write a temporary file in the target's own
 * directory, then rename it over the target. A rename within one file
 * system is atomic, so a reader (this process or another) sees the old
 * file or the new one, never half of either, and two writers racing for
 * one file leave one whole file. Internal to the cache stores and the page
 * cache.
 */
import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { rm, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

let sequence = 0;

/**
 * A temporary name beside `file`: a dotfile (public-file indexes skip dotfiles, so it is never
 * served) unique to this process and write.
 */
function temporaryNameFor(file: string): string {
  const unique = `${process.pid}.${(++sequence).toString(36)}.${randomBytes(4).toString('hex')}`;
  return join(dirname(file), `.${basename(file).slice(0, 100)}.${unique}.tmp`);
}

/** Whether a name in a cache directory is one of `temporaryNameFor`'s. */
export function isTemporaryName(name: string): boolean {
  return name.startsWith('.') && name.endsWith('.tmp');
}

export function writeFileAtomicSync(file: string, data: string | Uint8Array): void {
  const temporary = temporaryNameFor(file);
  try {
    writeFileSync(temporary, data, { flag: 'wx' });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const temporary = temporaryNameFor(file);
  try {
    await writeFile(temporary, data, { flag: 'wx' });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
