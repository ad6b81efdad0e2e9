/**
 * `npm run build` (and `prepack`): the package in dist/ from scratch. Cleaning first keeps files
 * of modules since removed (and the benchmarks' build, which shares dist/) out of the package.
 * tsc compiles TypeScript only, so the inspector page's own files (HTML, CSS, browser scripts)
 * and the files `signalbox new` copies into a new application are copied beside the compiled
 * modules that use them.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const PAGE = 'transport/inspect/page';
const SKELETON = 'bin/new/skeleton';

rmSync(DIST, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
if (compiled.status !== 0) {
  console.error('build: tsc -p tsconfig.build.json failed');
  process.exit(compiled.status ?? 1);
}
for (const dir of [PAGE, SKELETON]) cpSync(join(ROOT, dir), join(DIST, dir), { recursive: true });
console.log(`build: dist/ written (ES modules and declarations; ${PAGE}/ and ${SKELETON}/ copied)`);
