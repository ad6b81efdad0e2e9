/**
 * The package as a consumer gets it: `npm pack` (which builds dist/ through prepack), then
 * `npm install` of the tarball into a new project, with its dependencies from the registry. Plain
 * `node` imports every entry and serves an application, the same with code generation from strings
 * refused; the consumer's strict `tsc` reads the
 * declarations without an error; the `signalbox` command runs without tsx; and the installed
 * footprint is no larger than Fastify 5's, installed the same way in the same run. Without a
 * reachable registry the suite is Unavailable (skipped locally, failed in CI).
 */
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, posix } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ELK_MISSING } from '../../transport/inspect/page-route.ts';
import { allowMoreTime } from '../harness/deadline.ts';
import { scratchDir } from '../support/temp.ts';
import { ROOT, npm, packed as packedPackage, run } from './support.ts';

const FIXTURE = join(ROOT, 'tests/package/consumer');
const manifest = createRequire(import.meta.url)('../../package.json') as { exports: Record<string, string | { types: string; default: string }> };

/** The bytes of every file under `dir` (apparent sizes), as a consumer's disk holds them. */
function treeBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? treeBytes(path) : lstatSync(path).size;
  }
  return total;
}

async function newProject(dir: string, install: readonly string[]): Promise<number> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
  await npm(['install', '--no-audit', '--no-fund', '--loglevel=error', ...install], dir);
  return treeBytes(join(dir, 'node_modules'));
}

/**
 * The first code block of `language` under the README heading `heading`, as the installed package's
 * README has it; with `throughFirstClose`, only up to its first line that starts with `}` (the end of
 * the block's first top-level statement that spans lines).
 */
function readmeBlock(readme: string, heading: string, language: 'ts' | 'js', throughFirstClose = false): string {
  const at = readme.indexOf(`\n${heading}\n`);
  assert.ok(at >= 0, `the README has a section ${heading}`);
  const open = readme.indexOf(`\n\`\`\`${language}\n`, at);
  const start = open + language.length + 5;
  const block = readme.slice(start, readme.indexOf('\n```\n', start) + 1);
  if (!throughFirstClose) return block;
  const close = block.indexOf('\n}');
  return block.slice(0, block.indexOf('\n', close + 1) + 1);
}

const test = suite('the packed package, installed by a consumer');

let work = '';
let consumer = '';
let tarball = '';
let packed: readonly string[] = [];
const footprint = { signalbox: 0, fastify: 0 };

test.before(async () => {
  allowMoreTime(60_000); // npm pack builds the package: most of a minute on a loaded machine
  work = scratchDir('package');
  ({ tarball, files: packed } = await packedPackage());
});

test.before(async () => {
  allowMoreTime(60_000); // three installs from the registry
  consumer = join(work, 'consumer');
  [footprint.signalbox, footprint.fastify] = await Promise.all([
    newProject(consumer, [tarball]),
    newProject(join(work, 'fastify'), ['fastify@5']),
  ]);
  // The consumer's own type checking needs Node's types, as any TypeScript project on Node does.
  await npm(['install', '--no-audit', '--no-fund', '--loglevel=error', '--save-dev', '@types/node@22'], consumer);
  for (const file of ['app.ts', 'tsconfig.json', 'smoke.mjs', 'routes.mjs', 'helpers.ts', 'tsconfig.helpers.json', 'strict.ts', 'typed.ts', 'tsconfig.strict.json', 'tsconfig.strict-bundler.json']) cpSync(join(FIXTURE, file), join(consumer, file));
});

test.after(() => {
  if (footprint.signalbox > 0 && footprint.fastify > 0) {
    console.log(`  installed footprint (node_modules, bytes): signalbox ${footprint.signalbox}, fastify@5 ${footprint.fastify}`);
  }
});

test('the tarball holds the build, the command, README and the documents it links to, LICENSE and CHANGELOG, and nothing else', () => {
  const stray = packed.filter((path) => !/^(dist\/|bin\/signalbox\.js$|README\.md$|docs\/containment\.md$|transport\/README\.md$|LICENSE$|CHANGELOG\.md$|package\.json$)/.test(path));
  assert.equal(stray, [], 'no tests, benchmarks, examples or TypeScript sources');
  assert.equal(packed.filter((path) => /^dist\/(bench|examples|tests|scripts)\//.test(path)), [], 'nothing of the benchmarks\' build');
  for (const file of ['LICENSE', 'CHANGELOG.md', 'README.md', 'bin/signalbox.js', 'dist/bin/signalbox.js', 'dist/transport/inspect/page/index.html']) {
    assert.ok(packed.includes(file), file);
  }
  // The README as npm shows it and as it lies in node_modules: every file it links to is in the package.
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  for (const [, link] of readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
    if (/^[a-z]+:/i.test(link)) continue;
    assert.ok(packed.includes(link), `README links to ${link}, which the package does not hold`);
  }
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target === 'string') continue;
    for (const file of [target.types, target.default]) assert.ok(packed.includes(file.slice(2)), `${subpath}: ${file}`);
  }
});

test('every source map it ships, and every map a shipped file names, points only at files it ships', () => {
  const shipped = new Set(packed);
  const broken: string[] = [];
  for (const path of packed) {
    const file = join(consumer, 'node_modules/signalbox', path);
    if (path.endsWith('.map')) {
      const map = JSON.parse(readFileSync(file, 'utf8')) as { sources?: string[]; sourcesContent?: unknown[] };
      (map.sources ?? []).forEach((source, i) => {
        const target = posix.join(posix.dirname(path), source);
        if (!shipped.has(target) && map.sourcesContent?.[i] == null) broken.push(`${path} -> ${target}`);
      });
    } else if (/\.(js|d\.ts)$/.test(path)) {
      const named = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(file, 'utf8'))?.[1];
      if (named !== undefined && !named.startsWith('data:') && !shipped.has(posix.join(posix.dirname(path), named))) broken.push(`${path} -> ${named}`);
    }
  }
  assert.equal(broken, [], 'an editor following these would find nothing');
});

test('plain node imports every entry and serves an application written in JavaScript', async () => {
  const ran = await run(process.execPath, ['smoke.mjs'], consumer);
  assert.is(ran.code, 0, ran.stderr);
  const seen = JSON.parse(ran.stdout) as {
    entries: Record<string, string[]>; generated: unknown; http: { status: number; body: unknown }; missing: number; inspector: number;
    elk: { status: number; body: string }; tunnel: { status: number; body: unknown };
  };
  assert.equal(Object.keys(seen.entries).sort(), ['signalbox', 'signalbox/core', 'signalbox/machines', 'signalbox/transport', 'signalbox/tunnel-client']);
  for (const name of ['draw', 'Controller', 'createApp', 'serve', 'html', 'RoutingError', 'RecordNotFound', 'SignalboxError', 'memoryStore']) {
    assert.ok(seen.entries.signalbox!.includes(name), `the root exports ${name}`);
  }
  assert.ok(seen.entries['signalbox/tunnel-client']!.includes('tunnel'));
  const posts = { posts: [{ id: 1, title: 'Hello' }] };
  assert.equal(seen.generated, { named: '/posts/7', hash: '/posts/7?page=2', recognized: { controller: 'posts', action: 'show', id: '7' } });
  assert.equal(seen.http, { status: 200, body: posts });
  assert.is(seen.missing, 404);
  assert.equal(seen.tunnel, { status: 200, body: posts });
  assert.is(seen.inspector, 200, 'the inspector page ships in dist/');
  assert.is(seen.elk.status, 200);
  assert.match(seen.elk.body, JSON.stringify(ELK_MISSING), 'without elkjs the page is told how to install it');
});

test('CommonJS require() of every entry gets what import gets (require of ES modules, Node 22.12 and later)', async () => {
  const entries = Object.keys(manifest.exports).filter((subpath) => subpath !== './package.json').map((subpath) => `signalbox${subpath.slice(1)}`);
  const script = `const entries = ${JSON.stringify(entries)};
const required = Object.fromEntries(entries.map((name) => [name, Object.keys(require(name)).sort()]));
Promise.all(entries.map(async (name) => [name, Object.keys(await import(name)).sort()])).then((imported) => {
  console.log(JSON.stringify({ required, imported: Object.fromEntries(imported) }));
});`;
  const ran = await run(process.execPath, ['--no-warnings', '--input-type=commonjs', '-e', script], consumer);
  assert.is(ran.code, 0, ran.stderr);
  const { required, imported } = JSON.parse(ran.stdout) as { required: Record<string, string[]>; imported: Record<string, string[]> };
  assert.equal(required, imported);
  assert.ok(required.signalbox!.includes('createApp'));
});

test('a process that refuses code generation from strings imports every entry and serves the same application', async () => {
  const plain = await run(process.execPath, ['smoke.mjs'], consumer);
  const hardened = await run(process.execPath, ['--disallow-code-generation-from-strings', 'smoke.mjs'], consumer);
  assert.is(hardened.code, 0, hardened.stderr);
  assert.equal(JSON.parse(hardened.stdout), JSON.parse(plain.stdout));
});

test("a consumer's strict tsc (skipLibCheck off, module nodenext) reports no error", async () => {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const ran = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], consumer);
  assert.is(`${ran.stdout}${ran.stderr}`, '');
  assert.is(ran.code, 0);
});

test("a consumer's strictest tsc (exactOptionalPropertyTypes, noUncheckedIndexedAccess, skipLibCheck off), under nodenext and bundler resolution, compiles options given as undefined and the README's examples", async () => {
  const readme = readFileSync(join(consumer, 'node_modules/signalbox/README.md'), 'utf8');
  const dir = join(consumer, 'readme');
  mkdirSync(dir, { recursive: true });
  // The routes module of "Routing in five minutes" (its draw), and the application of the section after it, which imports it.
  writeFileSync(join(dir, 'routes.ts'), readmeBlock(readme, '## Routing in five minutes', 'ts', true));
  writeFileSync(join(dir, 'five-minutes.ts'), readmeBlock(readme, '## An application in five more minutes', 'ts'));
  cpSync(join(FIXTURE, 'readme-store.ts'), join(dir, 'store.ts'));
  writeFileSync(join(dir, 'server.js'), `// @ts-check\n${readmeBlock(readme, '## From an existing JavaScript project', 'js')}`);
  const types = await run(process.execPath, [join(consumer, 'node_modules/.bin/signalbox'), 'routes', '--types', 'readme/routes.ts', '--out', 'readme/routes.helpers.d.ts'], consumer);
  assert.is(types.code, 0, types.stderr);
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  for (const config of ['tsconfig.strict.json', 'tsconfig.strict-bundler.json']) {
    const ran = await run(process.execPath, [tsc, '-p', config], consumer);
    assert.is(`${ran.stdout}${ran.stderr}`, '', config);
    assert.is(ran.code, 0, config);
  }
});

test('plain node runs that strict TypeScript as written (type stripping), the options given as undefined taking their defaults', async () => {
  const ran = await run(process.execPath, ['strict.ts'], consumer);
  assert.is(ran.code, 0, ran.stderr);
  assert.equal(JSON.parse(ran.stdout), { tunnel: 200, http: 200, body: { first: '1' }, routingError: 'SBX_ERR_ROUTING', attachTunnel: 'function' });
});

test('signalbox routes --types declares a routes module\'s helpers, and the consumer\'s strict tsc checks calls against them', async () => {
  const printed = await run(process.execPath, [join(consumer, 'node_modules/.bin/signalbox'), 'routes', '--types', 'routes.mjs'], consumer);
  assert.is(printed.code, 0, printed.stderr);
  assert.match(printed.stdout, "declare module 'signalbox' {");
  // As `signalbox routes --types routes.mjs > routes.d.ts` leaves it.
  writeFileSync(join(consumer, 'routes.d.ts'), printed.stdout);
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const ran = await run(process.execPath, [tsc, '-p', 'tsconfig.helpers.json'], consumer);
  assert.is(`${ran.stdout}${ran.stderr}`, '', 'helpers.ts: the calls compile, the misspelt and mistyped ones (@ts-expect-error) do not');
  assert.is(ran.code, 0);
  // The same program without the declarations: no helper is known at all, so the calls fail to compile.
  writeFileSync(join(consumer, 'routes.d.ts'), 'export {};\n');
  const bare = await run(process.execPath, [tsc, '-p', 'tsconfig.helpers.json'], consumer);
  assert.match(bare.stdout, "error TS2339: Property 'post_comment_path' does not exist on type 'Helpers'");
});

test('installed, it needs neither tsx nor elkjs, and the signalbox command runs compiled', async () => {
  assert.not.ok(existsSync(join(consumer, 'node_modules/tsx')), 'tsx is a development dependency');
  assert.not.ok(existsSync(join(consumer, 'node_modules/elkjs')), 'elkjs is optional');
  const ran = await run(process.execPath, [join(consumer, 'node_modules/.bin/signalbox'), 'machines', '--format', 'json'], consumer);
  assert.is(ran.code, 0, ran.stderr);
  assert.is((JSON.parse(ran.stdout) as { id: string }[])[0]!.id, 'request');
});

test("the installed footprint is no larger than Fastify 5's, measured the same way", () => {
  assert.ok(footprint.fastify > 1_000_000, 'Fastify was installed');
  assert.ok(footprint.signalbox <= footprint.fastify, `signalbox ${footprint.signalbox} B > fastify ${footprint.fastify} B`);
});

test.run();
