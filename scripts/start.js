#!/usr/bin/env node
// `npm start`: the example blog as production runs it, one node process on compiled JavaScript.
//
// The blog is compiled to build/ (tsconfig.app.json) when build/ is missing or older than any of its
// sources, then imported into this very process: no tsx, no loader, no second process. The check is a
// walk of the source tree's modification times (a few milliseconds); the build, when one is needed,
// runs TypeScript's compiler once and says so. `npm run dev` runs the TypeScript sources through tsx
// instead, for the edit loop. Plain JavaScript, so that it runs on any Node without a build of its own.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BUILD = join(ROOT, 'build');
const STAMP = join(BUILD, '.built');
const MAIN = join(BUILD, 'examples', 'blog', 'main.js');
/** What the build reads: the framework, the blog, and what says how to compile them. */
const SOURCES = ['index.ts', 'core', 'machines', 'transport', 'bin', 'examples/blog', 'tsconfig.json', 'tsconfig.build.json', 'tsconfig.app.json', 'package.json'];
/** Copied beside the compiled modules that read them at run time. */
const ASSETS = ['examples/blog/public', 'transport/inspect/page'];
/** Written by the running blog, never an input. */
const SKIP = new Set([join(ROOT, 'examples/blog/tmp')]);

function newest(path) {
  if (SKIP.has(path)) return 0;
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  let latest = stats.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

function stale() {
  if (!existsSync(MAIN) || !existsSync(STAMP)) return true;
  const built = statSync(STAMP).mtimeMs;
  return [...SOURCES, ...ASSETS].some((p) => newest(join(ROOT, p)) > built);
}

function build() {
  console.log('npm start: compiling the blog to build/ (its sources changed since the last build)');
  let tsc;
  try {
    tsc = nodeModule.createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    console.error('npm start: build/ is missing or out of date, and compiling it needs the development dependencies: run npm install');
    process.exit(1);
  }
  rmSync(STAMP, { force: true });
  const compiled = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.app.json'], { cwd: ROOT, stdio: 'inherit' });
  if (compiled.status !== 0) {
    console.error('npm start: tsc -p tsconfig.app.json failed');
    process.exit(compiled.status ?? 1);
  }
  for (const dir of ASSETS) {
    rmSync(join(BUILD, dir), { recursive: true, force: true });
    cpSync(join(ROOT, dir), join(BUILD, dir), { recursive: true });
  }
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
}

// Workers (WEB_CONCURRENCY) run this file again: only the primary builds.
if (process.env.NODE_UNIQUE_ID === undefined && stale()) build();
// `node scripts/start.js --build-only` (npm run build:app): compile when needed, start nothing.
if (process.argv[2] !== '--build-only') {
  // Node's compile cache (22.1+) keeps V8's compiled code of every module on disk, checked against each
  // file's contents: the next start reads it instead of compiling the framework and the app again.
  nodeModule.enableCompileCache?.(join(BUILD, '.compile-cache'));
  await import(pathToFileURL(MAIN).href);
}
