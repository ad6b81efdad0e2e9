/**
 * Recognition and generation speed against find-my-way and path-to-regexp,
 * in one process, on one Rails-like table (bench/fixtures/rails-table.ts).
 * Run with `npm run bench:recognize`; writes its section of bench/RESULTS.md.
 */
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { compile } from 'path-to-regexp';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { railsTable, requestMix, NESTED } from './fixtures/rails-table.ts';
import { machine, median, writeSection } from './support/results.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 11);
const REPEAT = 25; // passes over the 2,000-request mix per round

function nsPer(count: number, fn: () => void): number {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / count;
}

// Table build time: draw() including compiling the recognizer and generators. The first build of a
// process runs cold (interpreted); later ones show the steady cost. find-my-way's build of the same
// routes is the peer. Two per-route pieces are compiled on first use and so are not in these figures:
// a trie leaf's parameter reader (when a request first ends there) and a named helper's positional
// generator (when the helper is first asked for).
const firstBuild = nsPer(1, () => railsTable()) / 1e6;
const routes = railsTable();
const mix = requestMix();
const buildFmw = () => {
  const router = FindMyWay();
  for (const r of routes.routes) for (const m of r.methods ?? ['GET']) router.on(m as HTTPMethod, r.path, () => {});
  return router;
};
const firstBuildFmw = nsPer(1, buildFmw) / 1e6;
for (let i = 0; i < 60; i++) { railsTable(); buildFmw(); }
const buildTimes: number[] = [];
const buildTimesFmw: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  buildTimes.push(nsPer(1, () => railsTable()) / 1e6);
  buildTimesFmw.push(nsPer(1, buildFmw) / 1e6);
}
const fmw = buildFmw();

let sink = 0;
const signalboxLookup = () => {
  for (let k = 0; k < REPEAT; k++) for (const [m, p] of mix) if (routes.match(m, p) !== null) sink++;
};
const fmwLookup = () => {
  for (let k = 0; k < REPEAT; k++) for (const [m, p] of mix) if (fmw.find(m as HTTPMethod, p) !== null) sink++;
};
const hits = mix.filter(([m, p]) => routes.match(m, p) !== null).length;
const fmwHits = mix.filter(([m, p]) => fmw.find(m as HTTPMethod, p) !== null).length;

// Warm up both, then interleave rounds so machine noise hits both alike.
for (let i = 0; i < 3; i++) { signalboxLookup(); fmwLookup(); }
const sb: number[] = [];
const fm: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  sb.push(nsPer(REPEAT * mix.length, signalboxLookup));
  fm.push(nsPer(REPEAT * mix.length, fmwLookup));
}

// Generation: the nested member path through a named helper, against path-to-regexp's compiled function.
const nested = NESTED[0];
const helperName = Object.keys(routes.named).find((n) => routes.named[n].path === `/${nested.parent}/:${nested.parent.slice(0, -1)}_id/${nested.child}/:id`)!;
// The benchmark's table is built at run time: its helpers are looked up by name, not declared to the compiler.
const helpers = routes.helpers() as unknown as Readonly<Record<string, (...args: unknown[]) => string>>;
const helper = helpers[`${helperName}_path`];
const toPath = compile(`/${nested.parent}/:post_id/${nested.child}/:id`);
const GEN = 200_000;
const genSb = () => { for (let i = 0; i < GEN; i++) sink += helper(i, 7).length; };
const genPtr = () => { for (let i = 0; i < GEN; i++) sink += toPath({ post_id: String(i), id: '7' }).length; };
for (let i = 0; i < 3; i++) { genSb(); genPtr(); }
const gs: number[] = [];
const gp: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  gs.push(nsPer(GEN, genSb));
  gp.push(nsPer(GEN, genPtr));
}

const lookup = median(sb);
const lookupFmw = median(fm);
const gen = median(gs);
const genPtrMs = median(gp);
const build = median(buildTimes);
const buildFmwMs = median(buildTimesFmw);
const require = createRequire(import.meta.url);
const version = (name: string) => {
  // Some packages do not export their package.json; read it beside the resolved entry point.
  const entry = require.resolve(name);
  const root = entry.slice(0, entry.lastIndexOf(`node_modules/${name}/`) + `node_modules/${name}/`.length);
  return (JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string }).version;
};

console.log(`routes: ${routes.routes.length}, requests: ${mix.length} (${hits} hits; find-my-way ${fmwHits})`);
console.log(`lookup signalbox: ${lookup.toFixed(0)} ns, find-my-way: ${lookupFmw.toFixed(0)} ns`);
console.log(`helper ${helperName}_path: ${gen.toFixed(0)} ns, path-to-regexp compile(): ${genPtrMs.toFixed(0)} ns`);
console.log(`table build: ${build.toFixed(2)} ms (first, cold: ${firstBuild.toFixed(2)} ms); find-my-way: ${buildFmwMs.toFixed(2)} ms (first: ${firstBuildFmw.toFixed(2)} ms)`);
console.log(`ratio signalbox/find-my-way: ${(lookup / lookupFmw).toFixed(2)}`);
console.log(`ratio helper/compile(): ${(gen / genPtrMs).toFixed(2)}`);
if (sink === 42) console.log('');

writeSection('recognize', `
## Recognition and generation (\`npm run bench:recognize\`)

Table: ${routes.routes.length} routes from \`map.resources\` (30 resources, 15 nested, 10 member and 10 collection extras, every \`.:format\` twin).
Mix: ${mix.length} requests, ${hits} hits across every route kind, ${mix.length - hits} misses (wrong method on a known path, unknown path).
Median of ${ROUNDS} interleaved rounds of ${REPEAT} passes each, after warm-up, one process. ${machine()}; find-my-way ${version('find-my-way')}, path-to-regexp ${version('path-to-regexp')}.

| measure | Signalbox | peer | ratio | target |
|---|---:|---:|---:|---|
| lookup (ns, \`RouteSet#match\` vs \`find-my-way#find\`) | ${lookup.toFixed(0)} | ${lookupFmw.toFixed(0)} | ${(lookup / lookupFmw).toFixed(2)} | ≤ 1.0 |
| named helper \`${helperName}_path(id, id)\` vs path-to-regexp \`compile()\` fn (ns) | ${gen.toFixed(0)} | ${genPtrMs.toFixed(0)} | ${(gen / genPtrMs).toFixed(2)} | ≤ 0.5 |
| table build, steady (ms, median rebuild: \`draw()\` with recognizer and generators vs \`find-my-way#on\` for each route) | ${build.toFixed(2)} | ${buildFmwMs.toFixed(2)} | ${(build / buildFmwMs).toFixed(2)} | < 5 ms |
| table build, first in a fresh process (ms, cold JIT) | ${firstBuild.toFixed(2)} | ${firstBuildFmw.toFixed(2)} | ${(firstBuild / firstBuildFmw).toFixed(2)} | |

ratio signalbox/find-my-way: ${(lookup / lookupFmw).toFixed(2)}
`);
