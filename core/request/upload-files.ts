/**
 * The temporary files one request's uploads were streamed to (Rails 2.1
 * kept uploads over 10 KB in a Tempfile). Each is created in the system's
 * temporary directory with a random name, readable by this user only, and
 * recorded here before a byte is written to it, so that `removeAll()`, run
 * when the request ends (answered or failed), leaves none behind.
 */
import { randomBytes } from 'node:crypto';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export class UploadFiles {
  readonly directory: string;
  readonly #paths = new Set<string>();

  constructor(directory: string = tmpdir()) {
    this.directory = directory;
  }

  /** How many files this request made (and has not removed). */
  get size(): number {
    return this.#paths.size;
  }

  /** A new, empty file of this request's, open for writing. */
  async create(): Promise<{ readonly path: string; readonly handle: FileHandle }> {
    const path = join(this.directory, `signalbox-upload-${randomBytes(12).toString('hex')}`);
    this.#paths.add(path);
    // `wx`: never an existing file (nor one a symbolic link names).
    const handle = await open(path, 'wx', 0o600);
    return { path, handle };
  }

  /** Removes every file this request made; failures (a file already gone) are ignored. */
  async removeAll(): Promise<void> {
    const paths = [...this.#paths];
    this.#paths.clear();
    await Promise.all(paths.map((path) => rm(path, { force: true }).catch(() => undefined)));
  }
}
