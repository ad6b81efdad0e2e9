/** Scratch directories for tests, removed when the test process exits. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const made: string[] = [];
process.once('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory under the OS temp dir that lasts until the process exits. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `signalbox-${prefix}-`));
  made.push(dir);
  return dir;
}

/** A scratch directory holding `files` (text by path from the directory), subdirectories made as needed. */
export function scratchTree(prefix: string, files: Readonly<Record<string, string>>): string {
  const root = scratchDir(prefix);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}
