/**
 * MIME types and registries: Rails 2.1's equality and predicates, registration
 * and aliases on independent registries, and the Accept-header ordering rules.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { MimeType, createMimeRegistry } from '../../../core/mime/types.ts';

const mime = suite('MIME types and registries');

/** Accept parsing as the corpus writes it: symbols, or strings for unregistered types. */
function parsed(header: string, register: [string, string][] = [['image/png', 'png'], ['application/pdf', 'pdf']]): (string | null)[] {
  const registry = createMimeRegistry();
  for (const [type, symbol] of register) registry.register(type, symbol);
  return registry.parse(header).map((t) => t.symbol ?? t.string);
}

mime('a new registry holds Rails 2.1 defaults, in registration order', () => {
  const names = createMimeRegistry().all().map((t) => t.symbol);
  assert.equal(names, ['all', 'text', 'html', 'js', 'css', 'ics', 'csv', 'xml', 'rss', 'atom', 'yaml', 'multipart_form', 'url_encoded_form', 'json']);
});

mime('lookup finds types by string and synonym; unregistered strings give a type without a symbol', () => {
  const registry = createMimeRegistry();
  assert.is(registry.lookup('application/xhtml+xml'), registry.get('html'));
  assert.is(registry.lookup('text/x-json').symbol, 'json');
  assert.is(registry.lookup('application/x-javascript').symbol, 'js');
  const unknown = registry.lookup('image/gif');
  assert.is(unknown.symbol, null);
  assert.is(unknown.string, 'image/gif');
  assert.is(unknown.name, 'image/gif');
  // Lookups are exact: Accept and Content-Type normalisation happens before them.
  assert.is(registry.lookup('TEXT/HTML').symbol, null);
});

mime('lookups never reach Object.prototype', () => {
  const registry = createMimeRegistry();
  assert.is(registry.get('toString'), undefined);
  assert.is(registry.lookup_by_extension('__proto__'), undefined);
  assert.is(registry.lookup('constructor').symbol, null);
});

mime('extensions are the symbol plus its extension synonyms', () => {
  const registry = createMimeRegistry();
  assert.is(registry.lookup_by_extension('xhtml'), registry.get('html'));
  assert.is(registry.lookup_by_extension('txt'), registry.get('text'));
  assert.is(registry.lookup_by_extension('xml')?.string, 'application/xml');
  assert.is(registry.lookup_by_extension('gif'), undefined);
});

mime('register adds a type to one registry only', () => {
  const a = createMimeRegistry();
  const b = createMimeRegistry();
  const mobile = a.register('text/x-mobile', 'mobile', ['text/mobile'], ['mob']);
  assert.is(a.get('mobile'), mobile);
  assert.is(a.lookup('text/mobile'), mobile);
  assert.is(a.lookup_by_extension('mob'), mobile);
  assert.is(b.get('mobile'), undefined);
  assert.is(b.lookup('text/x-mobile').symbol, null);
});

mime('register_alias adds a symbol and extensions while lookup keeps the original type', () => {
  const registry = createMimeRegistry();
  const iphone = registry.register_alias('text/html', 'iphone', ['iph']);
  assert.is(iphone.string, 'text/html');
  assert.is(registry.get('iphone'), iphone);
  assert.is(registry.lookup_by_extension('iphone'), iphone);
  assert.is(registry.lookup_by_extension('iph'), iphone);
  assert.is(registry.lookup('text/html'), registry.get('html'));
  assert.ok(registry.all().includes(iphone));
});

mime('re-registering a symbol replaces it', () => {
  const registry = createMimeRegistry();
  const json = registry.register('application/vnd.api+json', 'json');
  assert.is(registry.get('json'), json);
  assert.is(registry.all().filter((t) => t.symbol === 'json').length, 1);
});

mime('equals follows Rails 2.1: symbol names, the type string and synonyms all match', () => {
  const registry = createMimeRegistry();
  const html = registry.get('html')!;
  assert.ok(html.equals('text/html'));
  assert.ok(html.equals('application/xhtml+xml'));
  assert.ok(html.equals('html'));
  assert.ok(html.equals(registry.lookup('application/xhtml+xml')));
  assert.ok(html.equals(new MimeType('text/html')));
  assert.not.ok(html.equals('text/plain'));
  assert.not.ok(html.equals(registry.get('xml')));
  assert.not.ok(html.equals(''));
  assert.not.ok(html.equals(null));
  assert.not.ok(html.equals(undefined));
  assert.ok(new MimeType('image/gif').equals('image/gif'));
});

mime('is() is the symbol predicate; html is true for html, */* and any type naming html', () => {
  const registry = createMimeRegistry();
  assert.ok(registry.get('xml')!.is('xml'));
  assert.not.ok(registry.get('xml')!.is('html'));
  assert.ok(registry.get('all')!.html);
  assert.ok(registry.get('html')!.html);
  assert.ok(new MimeType('application/vnd.wap.xhtml+xml').html);
  assert.not.ok(registry.get('js')!.html);
});

mime('verify_request is false exactly for text, json, csv, xml, rss, atom and yaml', () => {
  const registry = createMimeRegistry();
  const verified = registry.all().filter((t) => t.verify_request).map((t) => t.symbol);
  assert.equal(verified, ['all', 'html', 'js', 'css', 'ics', 'multipart_form', 'url_encoded_form']);
  assert.ok(new MimeType('application/x-custom').verify_request, 'unregistered types are verified');
});

mime('types are frozen and print as their string', () => {
  const type = createMimeRegistry().get('json')!;
  assert.ok(Object.isFrozen(type));
  assert.ok(Object.isFrozen(type.synonyms));
  assert.is(String(type), 'application/json');
  assert.is(`${type}`, 'application/json');
});

const accept = suite('Accept header parsing');

const CASES: [header: string, expected: (string | null)[], why: string][] = [
  ['', [], 'an empty header names nothing'],
  ['text/html', ['html'], 'a single type is looked up'],
  ['  text/html  ', ['html'], 'a single type is trimmed'],
  ['text/html;q=0.5', ['text/html;q=0.5'], 'a comma-free header is looked up whole, q and all (Rails)'],
  ['text/plain;q=0.5, text/html', ['html', 'text'], 'higher q first'],
  ['text/html;q=0.5, text/plain;q=0.5', ['html', 'text'], 'equal q keeps header order'],
  ['text/html;q=0.555, text/plain;q=0.559', ['html', 'text'], 'q compares as whole percents'],
  ['*/*, text/html', ['html', 'all'], '*/* without a q sorts last'],
  ['*/*;q=1, text/html', ['all', 'html'], '*/* with an explicit q sorts by it'],
  ['text/html;q=, text/plain', ['html', 'text'], 'an empty q is absent (Ruby split drops it)'],
  ['text/html;q=abc, text/plain', ['text', 'html'], 'a q that is not a number is 0'],
  ['text/html; q=0.2, application/json;  q=0.9', ['json', 'html'], 'spaces may follow the semicolon'],
  ['text/html;level=1, text/plain', ['text/html;level=1', 'text'], 'other parameters stay in the name'],
  ['text/html,,  ,text/plain,', ['html', 'text'], 'blank items are skipped'],
  ['text/html, application/xhtml+xml', ['html'], 'synonyms collapse into one type'],
  ['image/gif, image/gif', ['image/gif'], 'unregistered duplicates collapse by string'],
  ['text/xml, text/html', ['xml', 'html'], 'a lone text/xml is read as application/xml'],
  ['text/html, text/xml;q=0.9, application/xml;q=0.5', ['html', 'xml'], 'text/xml folds into application/xml, keeping the higher q'],
  ['application/xml, text/html, text/xml', ['xml', 'html'], 'text/xml after application/xml is dropped'],
  ['application/xml, application/rss+xml, application/atom+xml', ['rss', 'atom', 'xml'], '+xml types move ahead of application/xml'],
  ['application/xml, text/html, application/rss+xml', ['rss', 'html', 'xml'], 'the +xml swap is a swap, as in Rails'],
  ['application/xml, application/rss+xml;q=0.5', ['xml', 'rss'], 'a lower-q +xml type stays behind'],
  ['text/xml, application/rss+xml', ['xml', 'rss'], 'a renamed text/xml does not reorder +xml types (Rails)'],
  [
    'text/xml,application/xhtml+xml,text/yaml,application/xml,text/html,image/png,text/plain,application/pdf,*/*',
    ['html', 'xml', 'yaml', 'png', 'text', 'pdf', 'all'],
    'Firefox 2 without q-values (mime_type_test.rb)',
  ],
  [
    'text/xml,application/xml,application/xhtml+xml,text/html;q=0.9,text/plain;q=0.8,image/png,*/*;q=0.5',
    ['html', 'xml', 'png', 'text', 'all'],
    'Firefox 3',
  ],
];

for (const [header, expected, why] of CASES) {
  accept(`${why}: ${JSON.stringify(header)}`, () => {
    assert.equal(parsed(header), expected);
  });
}

accept('parsing uses the registry it is called on', () => {
  assert.equal(parsed('image/png, text/html', []), ['image/png', 'html']);
  assert.equal(parsed('image/png, text/html'), ['png', 'html']);
});

accept('acceptList parses an Accept header once and hands back the same frozen list', () => {
  const registry = createMimeRegistry();
  const header = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
  const first = registry.acceptList(header, null);
  assert.equal(first.map((t) => t.symbol), registry.parse(header).map((t) => t.symbol));
  assert.ok(Object.isFrozen(first));
  assert.is(registry.acceptList(header, null), first);
});

accept('acceptList without an Accept header is the Content-Type type, then */*', () => {
  const registry = createMimeRegistry();
  const json = registry.get('json')!;
  assert.equal(registry.acceptList(undefined, null).map(String), ['*/*']);
  assert.equal(registry.acceptList('  ', json).map(String), ['application/json', '*/*']);
  assert.is(registry.acceptList(undefined, json), registry.acceptList('', json));
  const odd = registry.lookup('application/x-odd');
  assert.equal(registry.acceptList(undefined, odd).map(String), ['application/x-odd', '*/*']);
});

accept('registering a type changes what a remembered Accept header means', () => {
  const registry = createMimeRegistry();
  const before = registry.acceptList('image/png', null);
  assert.is(before[0].symbol, null);
  registry.register('image/png', 'png');
  assert.is(registry.acceptList('image/png', null)[0].symbol, 'png');
});

accept('many distinct Accept headers do not grow the registry without bound', () => {
  const registry = createMimeRegistry();
  const first = registry.acceptList('text/x-0', null);
  for (let i = 1; i <= 300; i++) registry.acceptList(`text/x-${i}`, null);
  // The memo started afresh once it filled, so the first header is parsed again into a new list.
  const again = registry.acceptList('text/x-0', null);
  assert.is.not(again, first);
  assert.equal(again.map(String), ['text/x-0']);
});

mime.run();
accept.run();
