/**
 * Runs the real `signalbox` command from the project root, as a user would, and
 * reports its exit code and output instead of throwing on a non-zero exit.
 */
import { execFile } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const run = promisify(execFile);

export interface Result { code: number; stdout: string; stderr: string }

export async function signalbox(...args: string[]): Promise<Result> {
  return signalboxIn(ROOT, ...args);
}

/** The command run from `cwd`, as a user inside that directory would run it. */
export async function signalboxIn(cwd: string, ...args: string[]): Promise<Result> {
  try {
    const { stdout, stderr } = await run(process.execPath, [resolve(ROOT, 'bin/signalbox.js'), ...args], { cwd, encoding: 'utf8' });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof err.code === 'number' ? err.code : -1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}
