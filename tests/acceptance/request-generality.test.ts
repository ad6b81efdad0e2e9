/**
 * The request fixture is general: it builds each case from the case's
 * documented fields, never from its id or from the names the corpus happens
 * to use. Every case of the request corpus is replayed twice, as it is and
 * as a transformed copy whose id is scrambled and whose controller and action
 * are renamed consistently (in the request path and in every field that
 * names them), and each case must come out the same both ways.
 *
 * Names the format's vocabulary fixes stay: the `echo` controller (the
 * corpus's echo), and the actions of `verify` cases (the verify fields
 * describe the guard, and the fixture reproduces Rails' verification
 * controller for what the guarded actions render). Ends with
 * `request fixture generality: N same, M differ`.
 */
import { createHash } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadCorpus } from '../support/acceptance.ts';
import { caseTarget, controllerClassName, type RequestCase } from '../support/fixture-app.ts';
import { checkCase, runCase } from '../support/request-runner.ts';
import { handleTransport } from '../support/harness.ts';

const scramble = (kind: string, text: string) => `${kind}${createHash('sha256').update(`${kind}:${text}`).digest('hex').slice(0, 10)}`;

interface Renaming {
  readonly controller: [from: string, to: string] | null;
  readonly action: [from: string, to: string] | null;
}

function renamingFor(c: RequestCase): Renaming {
  const target = caseTarget(c);
  const controller = target.controller === 'echo' || target.controller === '' ? null : target.controller;
  return {
    controller: controller === null ? null : [controller, controller.split('/').map((w) => scramble('c', w)).join('/')],
    action: 'verify' in c ? null : [target.action, scramble('a', target.action)],
  };
}

const renameAction = (r: Renaming, name: unknown) => (r.action !== null && name === r.action[0] ? r.action[1] : name);

/** A path (or URL) whose first segments are the case's controller and action, renamed. */
function renamePath(r: Renaming, url: string, isRequest: boolean): string {
  const m = /^((?:https?:\/\/[^/]+)?)(\/[^?#]*)(.*)$/.exec(url);
  if (!m) return url;
  const [, origin, path, rest] = m;
  const words = path.split('/').filter(Boolean);
  const target = r.controller?.[0] ?? (isRequest ? words[0] : null);
  if (target === null || target === undefined) return url;
  const controllerWords = target.split('/');
  if (controllerWords.some((w, i) => words[i] !== w)) return url;
  const after = words.slice(controllerWords.length);
  // Only the requested action: a redirect to another action of the controller keeps that action's name.
  if (isRequest && after.length > 0) after[0] = String(renameAction(r, after[0]));
  const controller = r.controller?.[1] ?? target;
  return `${origin}/${[controller, ...after].join('/')}${rest}`;
}

function transform(c: RequestCase): RequestCase {
  const r = renamingFor(c);
  const copy = structuredClone(c);
  copy.id = scramble('case-', c.id);
  copy.request.path = renamePath(r, c.request.path, true);
  const redirect = copy.action?.redirect_to;
  if (redirect !== null && typeof redirect === 'object' && typeof redirect.controller === 'string' && r.controller !== null) {
    const bare = redirect.controller.replace(/^\//, '');
    if (bare === r.controller[0]) redirect.controller = `${redirect.controller.startsWith('/') ? '/' : ''}${r.controller[1]}`;
  }
  if (copy.setup?.hidden_actions) copy.setup.hidden_actions = copy.setup.hidden_actions.map((n: string) => renameAction(r, n));
  const protection = copy.setup?.protect_from_forgery;
  for (const key of ['only', 'except']) if (protection?.[key]) protection[key] = protection[key].map((n: string) => renameAction(r, n));
  const e = copy.expect;
  if (typeof e.body === 'string') e.body = renameAction(r, e.body);
  if (Array.isArray(e.body_contains)) {
    const target = caseTarget(c);
    const renamed = caseTarget(copy);
    e.body_contains = e.body_contains.map((part: string) => String(renameAction(r, part))
      .replace(`${controllerClassName(target.controller)}#${target.action}`, `${controllerClassName(renamed.controller)}#${renamed.action}`));
  }
  const location = e.headers?.Location;
  if (typeof location === 'string') e.headers.Location = renamePath(r, location, false);
  return copy;
}

const corpus = loadCorpus<{ cases: RequestCase[] }>(/request/);
const cases = corpus.flatMap(({ data }) => data.cases ?? []);
const test = suite('request fixture generality');
let same = 0;
const differ: string[] = [];

test('the transformation renames what the vocabulary allows', () => {
  const renamed = cases.filter((c) => caseTarget(transform(c)).action !== caseTarget(c).action || caseTarget(transform(c)).controller !== caseTarget(c).controller);
  assert.ok(cases.length > 0, 'the corpus has request cases');
  assert.ok(renamed.length / cases.length > 0.8, `${renamed.length} of ${cases.length} cases renamed`);
  for (const c of cases) assert.is.not(transform(c).id, c.id);
});

for (const c of cases) {
  test(`a renamed copy of ${scramble('case-', c.id)} comes out as the case does`, async () => {
    const copy = transform(c);
    if (c.setup?.remote_addr && !handleTransport.chooses_remote_address) return;
    const original = checkCase(c, await runCase(c, 'compiled', handleTransport));
    const renamed = checkCase(copy, await runCase(copy, 'compiled', handleTransport));
    if ((original.length === 0) === (renamed.length === 0)) same++;
    else {
      differ.push(`${c.id} as ${copy.request.path}: ${[...original, ...renamed].join('; ') || 'one passes, one fails'}`);
      assert.unreachable(`the renamed copy of ${c.id} (${copy.request.path}) ${renamed.length ? `fails: ${renamed.join('; ')}` : 'passes where the case fails'}`);
    }
  });
}

test.after(() => {
  for (const d of differ.slice(0, 40)) console.log(`  DIFFER ${d}`);
  console.log(`request fixture generality: ${same} same, ${differ.length} differ`);
  if (differ.length > 0 || same === 0) process.exitCode = 1;
});

test.run();
