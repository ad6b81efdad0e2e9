/**
 * Recognition and generation speed against find-my-way, path-to-regexp and
 * Signalbox's own named helpers, in one process, on one Rails-like table
 * (bench/fixtures/rails-table.ts). Each comparison runs its two sides in
 * alternating short rounds (the order flipping every round), so the drift of
 * a shared machine falls on both alike; the ratio is the median of the
 * per-round ratios, with a bootstrap interval.
 * Run with `npm run bench:recognize`; writes its section of bench/RESULTS.md.
 */
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { compile } from 'path-to-regexp';
import { railsTable, requestMix, NESTED } from './fixtures/rails-table.ts';
import { machine, median, writeSection } from './support/results.ts';
import { pairedRatio, type PairedEstimate } from './support/paired.ts';
import { rng } from './support/plan.ts';
import { version } from './support/provenance.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 101);
const REPEAT = 3; // passes over the 2,000-request mix per round

interface Compared {
  readonly a: number;
  readonly b: number;
  readonly paired: PairedEstimate;
}

/** Times `a` and `b` (ns per operation) in alternating rounds after a warm-up; medians and the paired ratio a/b. */
function compare(a: () => void, b: () => void, perRound: number, rounds = ROUNDS): Compared {
  for (let i = 0; i < 20; i++) { a(); b(); }
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      as.push(nsPer(perRound, a));
      bs.push(nsPer(perRound, b));
    } else {
      bs.push(nsPer(perRound, b));
      as.push(nsPer(perRound, a));
    }
  }
  return { a: median(as), b: median(bs), paired: pairedRatio(as, bs, rng(7)) };
}

const ratioText = (p: PairedEstimate) => `${p.ratio.toFixed(2)} (${p.low.toFixed(2)}–${p.high.toFixed(2)})`;

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

const lookupRun = compare(signalboxLookup, fmwLookup, REPEAT * mix.length);

// Generation: the nested member path through a named helper, against path-to-regexp's compiled function.
const nested = NESTED[0];
const helperName = Object.keys(routes.named).find((n) => routes.named[n].path === `/${nested.parent}/:${nested.parent.slice(0, -1)}_id/${nested.child}/:id`)!;
// The benchmark's table is built at run time: its helpers are looked up by name, not declared to the compiler.
const helpers = routes.helpers() as unknown as Readonly<Record<string, (...args: unknown[]) => string>>;
const helper = helpers[`${helperName}_path`];
const toPath = compile(`/${nested.parent}/:post_id/${nested.child}/:id`);
const GEN = 20_000;
const genSb = () => { for (let i = 0; i < GEN; i++) sink += helper(i, 7).length; };
const genPtr = () => { for (let i = 0; i < GEN; i++) sink += toPath({ post_id: String(i), id: '7' }).length; };
const helperRun = compare(genSb, genPtr, GEN);

// Generation from a hash against the named helper for the same route, from the same route set:
// `routes.generate(hash)` against `post_path(id)`, and, inside a request (host default, the recall of
// `GET /posts`), `url_for(hash)` naming only the action and id against `post_url(id)`.
const requestHelpers = routes.helpers({ host: 'example.com' }, { controller: 'posts', action: 'index' });
const postPath = helpers.post_path;
const postUrl = requestHelpers.post_url;
const urlFor = requestHelpers.url_for;
const hashGenerate = () => { for (let i = 0; i < GEN; i++) sink += routes.generate({ controller: 'posts', action: 'show', id: i }).length; };
const namedPath = () => { for (let i = 0; i < GEN; i++) sink += postPath(i).length; };
const hashUrlFor = () => { for (let i = 0; i < GEN; i++) sink += urlFor({ action: 'show', id: i }).length; };
const namedUrl = () => { for (let i = 0; i < GEN; i++) sink += postUrl(i).length; };
if (routes.generate({ controller: 'posts', action: 'show', id: 1 }) !== postPath(1) || urlFor({ action: 'show', id: 1 }) !== postUrl(1)) {
  throw new Error('hash generation and the named helper disagree');
}
const generateRun = compare(hashGenerate, namedPath, GEN);
const urlForRun = compare(hashUrlFor, namedUrl, GEN);

const lookup = lookupRun.a;
const lookupFmw = lookupRun.b;
const gen = helperRun.a;
const genPtrMs = helperRun.b;
const build = median(buildTimes);
const buildFmwMs = median(buildTimesFmw);
console.log(`routes: ${routes.routes.length}, requests: ${mix.length} (${hits} hits; find-my-way ${fmwHits})`);
console.log(`lookup signalbox: ${lookup.toFixed(0)} ns, find-my-way: ${lookupFmw.toFixed(0)} ns`);
console.log(`helper ${helperName}_path: ${gen.toFixed(0)} ns, path-to-regexp compile(): ${genPtrMs.toFixed(0)} ns`);
console.log(`table build: ${build.toFixed(2)} ms (first, cold: ${firstBuild.toFixed(2)} ms); find-my-way: ${buildFmwMs.toFixed(2)} ms (first: ${firstBuildFmw.toFixed(2)} ms)`);
console.log(`generate(hash): ${generateRun.a.toFixed(0)} ns, post_path(id): ${generateRun.b.toFixed(0)} ns`);
console.log(`url_for(hash): ${urlForRun.a.toFixed(0)} ns, post_url(id): ${urlForRun.b.toFixed(0)} ns`);
console.log(`ratio signalbox/find-my-way: ${ratioText(lookupRun.paired)}`);
console.log(`ratio helper/compile(): ${ratioText(helperRun.paired)}`);
console.log(`ratio generate(hash)/post_path: ${ratioText(generateRun.paired)}; url_for(hash)/post_url: ${ratioText(urlForRun.paired)}`);
if (sink === 42) console.log('');

writeSection('recognize', `
## Recognition and generation (\`npm run bench:recognize\`)

Table: ${routes.routes.length} routes from \`map.resources\` (30 resources, 15 nested, 10 member and 10 collection extras, every \`.:format\` twin).
Mix: ${mix.length} requests, ${hits} hits across every route kind, ${mix.length - hits} misses (wrong method on a known path, unknown path).
Each comparison runs its two sides in ${ROUNDS} alternating rounds in one process, after warm-up (lookup: ${REPEAT} passes over the mix per round; generation: ${GEN.toLocaleString('en-US')} calls per round), the order flipping every round. Times are medians of the rounds; the ratio is the median of the per-round ratios, with a 90% bootstrap interval in brackets. ${machine()}; find-my-way ${version('find-my-way')}, path-to-regexp ${version('path-to-regexp')}.

| measure | Signalbox | peer | ratio | target |
|---|---:|---:|---:|---|
| lookup (ns, \`RouteSet#match\` vs \`find-my-way#find\`) | ${lookup.toFixed(0)} | ${lookupFmw.toFixed(0)} | ${ratioText(lookupRun.paired)} | ≤ 0.6 |
| named helper \`${helperName}_path(id, id)\` vs path-to-regexp \`compile()\` fn (ns) | ${gen.toFixed(0)} | ${genPtrMs.toFixed(0)} | ${ratioText(helperRun.paired)} | ≤ 0.5 |
| \`routes.generate({ controller: 'posts', action: 'show', id })\` vs named helper \`post_path(id)\` (ns) | ${generateRun.a.toFixed(0)} | ${generateRun.b.toFixed(0)} | ${ratioText(generateRun.paired)} | ≤ 3 |
| \`url_for({ action: 'show', id })\` in a request (host, recall of \`GET /posts\`) vs \`post_url(id)\` (ns) | ${urlForRun.a.toFixed(0)} | ${urlForRun.b.toFixed(0)} | ${ratioText(urlForRun.paired)} | ≤ 3 |
| table build, steady (ms, median rebuild: \`draw()\` with recognizer and generators vs \`find-my-way#on\` for each route) | ${build.toFixed(2)} | ${buildFmwMs.toFixed(2)} | ${(build / buildFmwMs).toFixed(2)} | < 5 ms |
| table build, first in a fresh process (ms, cold JIT) | ${firstBuild.toFixed(2)} | ${firstBuildFmw.toFixed(2)} | ${(firstBuild / firstBuildFmw).toFixed(2)} | |

ratio signalbox/find-my-way: ${lookupRun.paired.ratio.toFixed(2)}
`);
