/**
 * What a benchmark measured: the commit, whether the framework's sources differ from it, a
 * fingerprint of those sources (to notice edits during a run), package versions, and the build the
 * servers run from.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { BENCH_DIR } from './results.ts';

export const ROOT = join(BENCH_DIR, '..');

/** The installed version of a dependency of the project. */
export function version(name: string): string {
  const require = createRequire(join(ROOT, 'package.json'));
  const entry = require.resolve(name);
  const root = entry.slice(0, entry.lastIndexOf(`node_modules/${name}/`) + `node_modules/${name}/`.length);
  return (JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string }).version;
}

/** The project's own version, from package.json. */
export function ownVersion(): string {
  return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** A fingerprint of the framework's sources (core/, machines/, transport/), to notice edits during a run. */
export function sourcesFingerprint(): string {
  const hash = createHash('sha1');
  const walk = (dir: string): void => {
    for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(rel);
      else if (e.isFile() && rel.endsWith('.ts')) hash.update(rel).update(readFileSync(join(ROOT, rel)));
    }
  };
  for (const dir of ['core', 'machines', 'transport']) walk(dir);
  return hash.digest('hex').slice(0, 10);
}

/** The commit measured, and whether the framework's sources differ from it. */
export function treeState(): string {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  if (head.status !== 0) return 'not a git checkout';
  const dirty = spawnSync('git', ['status', '--porcelain', '--', 'core', 'machines', 'transport'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean);
  return `commit ${head.stdout.trim()}${dirty.length ? ` plus uncommitted changes to ${dirty.length} file(s) under core/, machines/, transport/` : ', clean'}`;
}

/** The benchmarks' build (tsconfig.bench.json), so that servers run from the build of the very sources fingerprinted. */
export function build(): void {
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.bench.json'], { cwd: ROOT, encoding: 'utf8', timeout: 300_000 });
  if (r.status !== 0) throw new Error(`the benchmarks' build (tsc -p tsconfig.bench.json) failed:\n${r.stdout}${r.stderr}`);
}
