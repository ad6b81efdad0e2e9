/**
 * One of bench/recognize.ts's operations in a fixed loop, for counting
 * instructions rather than timing them (a count that a busy machine cannot
 * move). Runs the operation `warm` times, then `count` times:
 *
 *   node recognize-loop.js CASE WARM COUNT
 *
 * built to plain JavaScript first (esbuild, packages external), and run
 * under `valgrind --tool=callgrind --smc-check=all-non-file` with node's
 * `--single-threaded --predictable`. The cost of one operation is the
 * difference between the totals of two runs with the same WARM and
 * different COUNTs, divided by the difference in COUNT; bench/RESULTS.md
 * gives the figures.
 *
 * Cases: `lookup` and `find-my-way` (one pass over the 2,000-request mix),
 * `generate` (`routes.generate` from a hash) and `post_path`, `url_for` (from
 * a hash, in a request) and `post_url`.
 */
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { railsTable, requestMix } from './fixtures/rails-table.ts';

const routes = railsTable();
const mix = requestMix();
const fmw = FindMyWay();
for (const r of routes.routes) for (const m of r.methods ?? ['GET']) fmw.on(m as HTTPMethod, r.path, () => {});
const helpers = routes.helpers();
const inRequest = routes.helpers({ host: 'example.com' }, { controller: 'posts', action: 'index' });
const { post_path: postPath } = helpers;
const { post_url: postUrl, url_for: urlFor } = inRequest;

let sink = 0;
const cases: Record<string, (n: number) => void> = {
  lookup: (n) => { for (let k = 0; k < n; k++) for (const [m, p] of mix) if (routes.match(m, p) !== null) sink++; },
  'find-my-way': (n) => { for (let k = 0; k < n; k++) for (const [m, p] of mix) if (fmw.find(m as HTTPMethod, p) !== null) sink++; },
  generate: (n) => { for (let i = 0; i < n; i++) sink += routes.generate({ controller: 'posts', action: 'show', id: i }).length; },
  post_path: (n) => { for (let i = 0; i < n; i++) sink += postPath(i).length; },
  url_for: (n) => { for (let i = 0; i < n; i++) sink += urlFor({ action: 'show', id: i }).length; },
  post_url: (n) => { for (let i = 0; i < n; i++) sink += postUrl(i).length; },
};

const [name = '', warm = '0', count = '0'] = process.argv.slice(2);
const run = cases[name];
if (run === undefined) throw new Error(`unknown case ${JSON.stringify(name)}: one of ${Object.keys(cases).join(', ')}`);
run(Number(warm));
run(Number(count));
if (sink === -1) console.log(sink);
