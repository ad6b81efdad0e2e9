/**
 * The routing peer suite's recognitions, asked as real requests: each case's
 * routes are drawn into an app whose every controller echoes the path
 * parameters it was dispatched with, and each `recognize` expectation is
 * sent through every transport of tests/support/harness.ts. A
 * recognition becomes a 200 carrying the expected parameters; a routing
 * error a 404; a method the path does not take a 405 with `Allow`; an
 * unknown method a 501. Two answers belong to the request layer rather than
 * the route table: a `.format` no MIME type is registered for is 406, and a
 * recognition without a method (Rails' `recognize_path(path)`) has no
 * request to stand for, so it is counted as skipped. Ends with
 * `routing through requests: N passed, M failed`.
 */
import { suite } from 'uvu';
import { Controller, createMimeRegistry, draw, type Params } from '../../core/index.ts';
import { createApp, type App } from '../../machines/index.ts';
import { loadCorpus, replayDraw, sameValue, show, type DrawCall } from '../support/acceptance.ts';
import { TRANSPORTS, type Client } from '../support/harness.ts';

interface Recognize { method: string | null; path: string; params?: Params; params_partial?: boolean; error?: string; allowed_methods?: string[]; not_params?: Params }
interface Case {
  id: string;
  draw: DrawCall[];
  config?: { resources_path_names?: { new?: string; edit?: string }; relative_url_root?: string };
  controllers?: string[];
  draw_error?: string;
  recognize?: Recognize[];
}

const ACCEPTED = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS']);
const mime = createMimeRegistry();

/** Answers any action with the path parameters it was dispatched with. */
class EchoController extends Controller {
  method_missing(): void {
    this.render({ json: this.request.path_parameters });
  }
}

function appFor(c: Case): App | null {
  let routes;
  try {
    routes = draw((map) => replayDraw(map, c.draw), { controllers: c.controllers, resources_path_names: c.config?.resources_path_names });
  } catch {
    return null;
  }
  const names = new Set<string>(c.controllers ?? []);
  for (const r of c.recognize ?? []) if (typeof r.params?.controller === 'string') names.add(r.params.controller);
  for (const route of routes.routes) if (typeof route.defaults.controller === 'string') names.add(route.defaults.controller);
  const controllers = Object.fromEntries([...names].map((n) => [n, EchoController]));
  return createApp({ routes, controllers, environment: 'test', logger: false, session: false });
}

/** The request target for a recognition path: characters a request line cannot carry are escaped. */
function target(path: string): string {
  // Rails recognises '' as the root; a request line always names at least '/'.
  if (path === '') return '/';
  return path.replace(/[^\x21-\x7e]|[#]/gu, (ch) => encodeURIComponent(ch));
}

interface Outcome { readonly status: number; readonly allow?: string; readonly params?: Params }

async function ask(client: Client, method: string, path: string): Promise<Outcome> {
  const res = await client.request({ method, path: target(path), headers: { accept: '*/*' } });
  const allow = res.headers.allow;
  let params: Params | undefined;
  if (res.status === 200) params = JSON.parse(res.body.toString('utf8')) as Params;
  return { status: res.status, allow: Array.isArray(allow) ? allow.join(', ') : allow, params };
}

/** What the request layer should answer for a recognition expectation. */
function problem(r: Recognize, got: Outcome): string | null {
  const method = r.method!.toUpperCase();
  if (!ACCEPTED.has(method)) return got.status === 501 ? null : `expected 501 for method ${method}, got ${got.status}`;
  if (r.error === 'not_recognized') return got.status === 404 || got.status === 405 || (got.status === 200 && !sameValue(got.params, r.not_params)) ? null : `expected no recognition of ${show(r.not_params)}, got ${got.status} ${show(got.params)}`;
  if (r.error === 'routing') return got.status === 404 ? null : `expected 404, got ${got.status} ${show(got.params ?? '')}`;
  if (r.error === 'method_not_allowed') {
    const allowed = (got.allow ?? '').split(/,\s*/).filter(Boolean).map((m) => m.toLowerCase()).sort();
    const wanted = [...(r.allowed_methods ?? [])].map((m) => m.toLowerCase()).sort();
    return got.status === 405 && (!r.allowed_methods || sameValue(allowed, wanted)) ? null : `expected 405 allowing ${show(wanted)}, got ${got.status} ${got.allow ?? ''}`;
  }
  if (r.error === 'other:NotImplemented') return got.status === 501 ? null : `expected 501, got ${got.status}`;
  if (r.error) return `unknown expectation ${r.error}`;
  const format = r.params?.format;
  if (typeof format === 'string' && format !== '' && mime.lookup_by_extension(format) === undefined) {
    return got.status === 406 ? null : `expected 406 for the unregistered format ${format}, got ${got.status}`;
  }
  if (got.status !== 200) return `expected 200 with ${show(r.params)}, got ${got.status}`;
  const expected = r.params as Params;
  const ok = r.params_partial
    ? Object.entries(expected).every(([k, v]) => sameValue(got.params![k], v))
    : sameValue(got.params, expected);
  return ok ? null : `expected ${show(expected)}, got ${show(got.params)}`;
}

const corpus = loadCorpus<{ cases: Case[] }>(/routing/);
let passed = 0;
let failed = 0;
let withoutMethod = 0;
const failures: string[] = [];
const test = suite('routing through requests');

for (const transport of TRANSPORTS) {
  for (const { file, data } of corpus) {
    for (const c of data.cases ?? []) {
      const recognitions = (c.recognize ?? []).filter((r) => r.method !== null);
      if (transport === TRANSPORTS[0]) withoutMethod += (c.recognize ?? []).length - recognitions.length;
      if (c.draw_error || recognitions.length === 0) continue;
      test(`[${transport.name}] ${file} ${c.id}`, async () => {
        const app = appFor(c);
        if (app === null) throw new Error('the case did not draw');
        const client = await transport.open(app);
        const problems: string[] = [];
        try {
          for (const [i, r] of recognitions.entries()) {
            let p: string | null;
            try {
              p = problem(r, await ask(client, r.method!.toUpperCase(), r.path));
            } catch (error) {
              p = `the request failed: ${String(error)}`;
            }
            if (p === null) passed++;
            else {
              failed++;
              problems.push(`recognize#${i} ${r.method} ${r.path}: ${p}`);
            }
          }
        } finally {
          await client.close();
        }
        if (problems.length > 0) {
          failures.push(...problems.map((p) => `[${transport.name}] ${c.id} ${p}`));
          throw new Error(problems.join('\n'));
        }
      });
    }
  }
}

test.after(() => {
  for (const f of failures.slice(0, 60)) console.log(`  FAIL ${f}`);
  console.log(`  skipped ${withoutMethod} recognition(s) without a method: recognize_path(path) has no request to stand for`);
  console.log(`routing through requests: ${passed} passed, ${failed} failed`);
  if (failed > 0 || passed === 0) process.exitCode = 1;
});

test.run();
