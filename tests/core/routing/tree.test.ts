/**
 * TreeRecognizer: the trie over path components, with a whole-path "slow
 * lane" for irregular routes. Runs the shared suite, then cases that aim at
 * the trie's own machinery (slow-lane merging, reused search state, lazily
 * compiled leaf readers), and checks it against the linear reference over
 * the benchmark's route table and request mix.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { draw, LinearRecognizer, TreeRecognizer, type Mapper, type Recognizer } from '../../../core/index.ts';
import { railsTable, requestMix } from '../../../bench/fixtures/rails-table.ts';
import { FIXTURE_ROUTES, runRecognizerSuite } from './recognizer.suite.ts';

runRecognizerSuite({ name: 'TreeRecognizer', create: (routes, options) => new TreeRecognizer(routes, options) });

const test = suite('TreeRecognizer');

function outcome(r: Recognizer, method: string | null, path: string): unknown {
  try {
    const m = r.match(method, path);
    return m === null ? null : { index: m.route.index, params: m.params };
  } catch (e) {
    return (e as Error).constructor.name;
  }
}

test('is named tree and is what draw() compiles by default', () => {
  assert.is(new TreeRecognizer(FIXTURE_ROUTES, { controllers: null }).name, 'tree');
  assert.is(draw((map) => map.resources('posts')).config.recognizer, 'tree');
});

test('an empty table matches nothing and allows nothing', () => {
  const r = new TreeRecognizer([], { controllers: null });
  assert.is(r.match('GET', '/'), null);
  assert.is(r.match('GET', ''), null);
  assert.equal(r.allowed_methods('/x'), []);
});

test('the lowest declaration index wins between the trie and the whole-path lane', () => {
  // `/x/:a.:b` with a dotted requirement lives in the slow lane; the plain routes live in the trie.
  const routes = draw((map) => {
    map.connect('x/:id', { controller: 'first', requirements: { id: /\d+/ } });
    map.connect('x/:v', { controller: 'slow', requirements: { v: /\d+\.\d+/ } });
    map.connect('x/:id', { controller: 'last' });
  }).routes;
  const r = new TreeRecognizer(routes, { controllers: null });
  assert.is(r.match('GET', '/x/12')?.params.controller, 'first');
  assert.is(r.match('GET', '/x/1.2')?.params.controller, 'slow');
  assert.is(r.match('GET', '/x/ab')?.params.controller, 'last');
});

test('optional static pieces and other irregular shapes still match through the whole-path lane', () => {
  const routes = draw((map) => {
    map.connect('dl/?latest?/:id', { controller: 'downloads', id: '0' });
    map.connect('v:version/:id', { controller: 'versions' });
    map.connect('a/:x-:y', { controller: 'pairs' });
    map.connect('c/:controller/:id', { requirements: { controller: /adm[a-z]*/ } });
  }).routes;
  for (const create of [(rs: typeof routes) => new TreeRecognizer(rs, { controllers: null }), (rs: typeof routes) => new LinearRecognizer(rs, { controllers: null })]) {
    const r = create(routes);
    // As in Rails 2.1, a colon starts a key only at the start of a piece: `v:version` and `-:y` are literal text.
    assert.equal(r.match('GET', '/v:version/9')?.params, { controller: 'versions', action: 'index', id: '9' });
    assert.equal(r.match('GET', '/a/1-:y')?.params, { controller: 'pairs', action: 'index', x: '1' });
    assert.is(r.match('GET', '/a/1-2'), null);
    assert.equal(r.match('GET', '/c/ADMIN/3')?.params, { controller: 'admin', action: 'index', id: '3' });
    assert.is(r.match('GET', '/c/users/3'), null);
    assert.equal(r.match('GET', '/dl/latest/5')?.params, { controller: 'downloads', action: 'index', id: '5' });
    assert.equal(r.match('GET', '/dl')?.params, { controller: 'downloads', action: 'index', id: '0' });
  }
});

test('one recognizer answers interleaved lookups without leaking state between them', () => {
  const r = new TreeRecognizer(FIXTURE_ROUTES, { controllers: null });
  const a1 = r.match('GET', '/posts/1/comments/2')!.params;
  const b = r.match('GET', '/archive/2008')!.params;
  const a2 = r.match('GET', '/posts/1/comments/2')!.params;
  assert.equal(a1, a2);
  assert.equal(b, { controller: 'archive', action: 'show', year: '2008', month: '1', day: '1' });
  assert.is(r.match('GET', '/nowhere/at/all/x/y'), null);
  assert.equal(r.match('GET', '/posts/3')!.params, { controller: 'posts', action: 'show', id: '3' });
});

test('a leaf reads the same parameters on first use (compiled) and after', () => {
  const r = new TreeRecognizer(FIXTURE_ROUTES, { controllers: null });
  const first = r.match('GET', '/posts/5.xml')!.params;
  const second = r.match('GET', '/posts/6.json')!.params;
  assert.equal(first, { controller: 'posts', action: 'show', id: '5', format: 'xml' });
  assert.equal(second, { controller: 'posts', action: 'show', id: '6', format: 'json' });
  assert.equal(r.match('GET', '/posts/a%2Fb.xml')!.params, { controller: 'posts', action: 'show', id: 'a/b', format: 'xml' });
});

test('routes handed over out of order still give the lowest declaration index', () => {
  const table = railsTable();
  const ordered = new TreeRecognizer(table.routes, { controllers: null });
  const reversed = new TreeRecognizer([...table.routes].reverse(), { controllers: null });
  for (const [method, path] of requestMix().slice(0, 400)) {
    assert.equal(outcome(reversed, method, path), outcome(ordered, method, path), `${method} ${path}`);
  }
});

test('agrees with the linear reference over the benchmark table and request mix', () => {
  const table = railsTable();
  const tree = new TreeRecognizer(table.routes, { controllers: null });
  const linear = new LinearRecognizer(table.routes, { controllers: null });
  for (const [method, path] of requestMix()) {
    assert.equal(outcome(tree, method, path), outcome(linear, method, path), `${method} ${path}`);
    assert.equal(tree.allowed_methods(path), linear.allowed_methods(path), `allowed_methods ${path}`);
  }
});

test('agrees with the linear reference on awkward paths over the shared fixture', () => {
  const paths = ['', '/', '//', '/.', '/..', '/posts.', '/posts/.xml', '/posts/1.', '/posts/1..xml', '/posts/1.x.y', '/posts?x', '/posts/1?x',
    '/files//a', '/files/a//', '/archive/2008/', '/archive/2008/1/2/3', '/hosts/1.2.3.4.xml', '/admin/user/list/1.xml', '/%', '/posts/%', '/ping/'];
  for (const controllers of [null, ['posts', 'admin/user']]) {
    const tree = new TreeRecognizer(FIXTURE_ROUTES, { controllers });
    const linear = new LinearRecognizer(FIXTURE_ROUTES, { controllers });
    for (const path of paths) {
      for (const method of ['GET', 'POST', 'PUT', null, 'BACON']) {
        assert.equal(outcome(tree, method, path), outcome(linear, method, path), `${method} ${JSON.stringify(path)}`);
      }
      assert.equal(tree.allowed_methods(path), linear.allowed_methods(path), `allowed_methods ${JSON.stringify(path)}`);
    }
  }
});

test('a trailing slash may end an empty last segment whose requirement accepts it, as in Rails\' pattern', () => {
  // `/pages/` is `pages/:name` with name '' (the route declared first), and `/` is `:site/` with site ''.
  const declare = (map: Mapper) => {
    map.connect('pages/:name', { controller: 'pages', requirements: { name: /[a-z]*/ } });
    map.named('display_page', ':site/', { controller: 'webpages', action: 'display_page', requirements: { site: /[^/]*/ } });
    map.connect('tags/:tag/:page', { controller: 'tags', page: '1', requirements: { page: /\d*/ } });
  };
  for (const recognizer of ['tree', 'linear'] as const) {
    const set = draw(declare, { recognizer });
    assert.equal(set.recognize('GET', '/pages/'), { controller: 'pages', action: 'index', name: '' }, recognizer);
    assert.equal(set.recognize('GET', '/pages'), { controller: 'webpages', action: 'display_page', site: 'pages' }, recognizer);
    assert.equal(set.recognize('GET', '/'), { controller: 'webpages', action: 'display_page', site: '' }, recognizer);
    // For an optional last segment the pattern ends at the slash first: the default stands.
    assert.equal(set.recognize('GET', '/tags/x/'), { controller: 'tags', action: 'index', tag: 'x', page: '1' }, recognizer);
    assert.equal(set.recognize('GET', '/tags/x//'), { controller: 'tags', action: 'index', tag: 'x', page: '' }, recognizer);
    assert.equal(set.recognize('GET', '/tags/x'), { controller: 'tags', action: 'index', tag: 'x', page: '1' }, recognizer);
    assert.equal(set.allowed_methods('/'), ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS'], recognizer);
  }
});

test.run();
