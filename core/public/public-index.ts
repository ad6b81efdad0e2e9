/**
 * Which files under the public directory may be served: an index of its
 * regular files, built once by scanning it (dotfiles, dot-directories and
 * anything past 10,000 files or 16 levels left out). Only files listed here
 * are ever served, so no request path, however encoded (`..`, `%2e%2e`,
 * `%2f`, backslashes, NUL), can name anything outside the directory. Code
 * that writes into the directory behind the app's back adds what it wrote.
 */
import { readdirSync, type Dirent } from 'node:fs';
import { join, relative, sep } from 'node:path';

const MAX_FILES = 10_000;

export class PublicIndex {
  readonly root: string;
  readonly #files = new Set<string>();

  constructor(root: string) {
    this.root = root;
    this.#scan(root, 0);
  }

  #scan(dir: string, depth: number): void {
    if (depth > 16 || this.#files.size >= MAX_FILES) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const full = join(dir, e.name);
      if (e.isDirectory()) this.#scan(full, depth + 1);
      else if (e.isFile()) this.add(full);
    }
  }

  /** Records a file written under the root (ignored when outside it). */
  add(file: string): void {
    const rel = relative(this.root, file);
    if (rel === '' || rel.startsWith('..') || rel.split(sep).some((p) => p.startsWith('.'))) return;
    this.#files.add(`/${rel.split(sep).join('/')}`);
  }

  remove(file: string): void {
    this.#files.delete(`/${relative(this.root, file).split(sep).join('/')}`);
  }

  /** The file for a decoded URL path (`/posts/1` also finds `/posts/1.html`, `/` finds `/index.html`). */
  lookup(path: string): string | null {
    for (const candidate of path === '/' ? ['/index.html'] : [path, `${path}.html`]) {
      if (this.#files.has(candidate)) return join(this.root, ...candidate.split('/'));
    }
    return null;
  }

  get size(): number {
    return this.#files.size;
  }
}
