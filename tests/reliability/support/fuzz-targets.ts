/**
 * What the reliability suite fuzzes, shared by the bounded property tests in
 * `npm test` and the long runs of `npm run fuzz` (bench/fuzz.ts): each
 * request parser with an input generator that mixes random text with the
 * shapes that parser's grammar cares about, and a judge that sorts each
 * outcome into accepted, refused with a typed 4xx error, or a crash (any
 * other exception). Prototype pollution is checked around every input.
 * Not a test file itself.
 */
import fc from 'fast-check';
import { SignalboxError, Request, createMimeRegistry, decodeCredentials, draw, type RequestMessage } from '../../../core/index.ts';
import { parseJsonParams, parseMultipart, parseQuery, parseXmlParams } from '../../../core/request/params.ts';
import { readRequestBatch, readRequestFrame } from '../../../transport/tunnel-frames.ts';

export type Outcome = 'accepted' | 'refused' | 'crash';

/** Whether `error` is a refusal the framework means: one of its own errors with a 4xx status. */
export function typed(error: unknown): boolean {
  return error instanceof SignalboxError && error.status >= 400 && error.status < 500;
}

export interface ParserTarget {
  readonly name: string;
  readonly input: fc.Arbitrary<string>;
  /** Runs the parser on one input; throws what the parser throws. */
  run(input: string): unknown;
}

/** Random text biased toward `alphabet` (the characters the grammar gives meaning to), and pieces of it. */
function textOver(alphabet: string[], pieces: string[] = []): fc.Arbitrary<string> {
  const unit = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...alphabet) },
    { weight: 2, arbitrary: fc.constantFrom(...(pieces.length > 0 ? pieces : alphabet)) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 3 }) },
  );
  return fc.array(unit, { maxLength: 60 }).map((parts) => parts.join(''));
}

const mime = createMimeRegistry();
const routes = draw((map) => {
  map.resources('posts', { has_many: 'comments' });
  map.connect(':controller/:action/:id.:format');
  map.connect('files/*path', { controller: 'files', action: 'show' });
});

function request(headers: Record<string, string>, url = '/'): Request {
  const message: RequestMessage = { method: 'GET', url, headers, body: null, remoteAddress: '10.0.0.1' };
  return new Request(message, { mime, limits: { keys: 50, depth: 5, arrayLength: 50 }, relative_url_root: '', trustProxy: true });
}

const SMALL_LIMITS = { keys: 50, depth: 5, arrayLength: 50, bodyBytes: 64 * 1024 };

export const PARSERS: readonly ParserTarget[] = [
  {
    name: 'query string',
    input: textOver(['a', 'b', '=', '&', ';', '[', ']', '%', '+', '0', '1'], ['[]', '[0]', '__proto__', 'constructor', '%5B', '%00', '%zz', 'prototype']),
    run: (input) => parseQuery(input, SMALL_LIMITS),
  },
  {
    name: 'JSON body',
    input: fc.oneof(
      fc.json({ maxDepth: 8 }),
      textOver(['{', '}', '[', ']', '"', ':', ',', '1', 'a', ' ', '\\'], ['"__proto__"', 'null', 'true', '1e999', '"\\u0000"']),
    ),
    run: (input) => parseJsonParams(input, SMALL_LIMITS),
  },
  {
    name: 'XML body',
    input: textOver(['<', '>', '/', 'a', 'b', '=', '"', ' ', '&', ';', '1'], [
      '<a>', '</a>', '<b type="integer">', '<b type="array">', '<c type="file" name="x">', '<![CDATA[', ']]>', '<!--', '-->',
      '<?xml version="1.0"?>', '&amp;', '&#65;', '&#x0;', '<__proto__>', '<!DOCTYPE a>', 'type="yaml"', 'nil="true"',
    ]),
    run: (input) => parseXmlParams(input, SMALL_LIMITS),
  },
  {
    name: 'multipart body',
    input: textOver(['-', '\r\n', 'a', '"', ';', ':', ' '], [
      '--AaB03x', '--AaB03x--', '\r\n\r\n', 'Content-Disposition: form-data; name="f"', '; filename="x.txt"', '; filename=""',
      'Content-Type: text/plain', 'name="a[]"', 'name="__proto__[x]"', 'filename*=UTF-8\'\'%E2%82%AC',
    ]),
    run: (input) => parseMultipart(Buffer.from(input, 'latin1'), 'multipart/form-data; boundary=AaB03x', SMALL_LIMITS),
  },
  {
    name: 'Cookie header',
    input: textOver(['a', '=', ';', ' ', '"', '%', ','], ['__proto__', '%ZZ', '%00', '=;=']),
    run: (input) => request({ cookie: input }).cookies,
  },
  {
    name: 'Accept header',
    input: textOver(['text', '/', 'html', '*', ';', 'q', '=', '0.5', ',', ' ', 'application', 'json', '+', 'xml'], ['*/*', 'q=0', 'q=abc', ';level=1']),
    run: (input) => request({ accept: input }).accepts,
  },
  {
    name: 'Authorization: Basic',
    input: textOver(['Basic', ' ', '\t', 'Q', 'W', '=', '+', '/', '!', ':'], ['Basic ', 'basic\t', 'YTpi', '==']),
    run: (input) => decodeCredentials(input),
  },
  {
    name: 'Host and forwarding headers',
    input: textOver(['a', '.', ':', '1', '[', ']', ',', ' '], ['localhost', '::1', '[::1]:80', '10.0.0.1, 10.0.0.2']),
    run: (input) => {
      const r = request({ host: input, 'x-forwarded-host': input, 'x-forwarded-for': input, 'x-forwarded-proto': input });
      return [r.host_with_port, r.remote_ip, r.ssl, r.subdomains()];
    },
  },
  {
    name: 'request path (recognition)',
    input: textOver(['/', 'posts', 'comments', '1', '.', 'json', '%', '2F', 'new', 'edit', ';', '?'], ['/posts/1/comments/2.xml', '%00', '%zz', '//']),
    run: (input) => routes.recognize('GET', input.startsWith('/') ? input : `/${input}`),
  },
  {
    name: 'tunnel request frame',
    input: fc.oneof(
      fc.record({
        id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
        method: fc.constantFrom('GET', 'POST', 'PATCH', 'get', '', 'G ET'),
        path: fc.oneof(fc.constantFrom('/', '/posts', 'http://x/', '/a b', '/\u0000'), fc.string()),
        headers: fc.oneof(fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.array(fc.string()), fc.integer())), fc.constant(null)),
        cookies: fc.oneof(fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.constant(null), fc.integer())), fc.array(fc.string()), fc.constant(null)),
        body: fc.oneof(fc.string(), fc.constant(undefined)),
      }, { requiredKeys: [] }).map((frame) => JSON.stringify(frame)),
      textOver(['{', '}', '"', ':', ',', 'id', 'method', 'path', '1']),
    ),
    // With an upgrade's Cookie for a frame's cookies to change.
    run: (input) => readRequestFrame(input, { cookie: 'a=1; b; =c; d=4' }),
  },
  {
    name: 'tunnel request batch (signalbox-tunnel.2)',
    input: fc.oneof(
      fc.array(fc.oneof(
        fc.record({
          id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
          method: fc.constantFrom('GET', 'POST', 'PATCH', ''),
          path: fc.oneof(fc.constantFrom('/', '/posts', 'http://x/'), fc.string()),
          headers: fc.oneof(fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer())), fc.constant(null)),
          bodyBase64: fc.oneof(fc.base64String(), fc.string(), fc.constant(undefined)),
        }, { requiredKeys: [] }),
        fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.array(fc.integer())),
      ), { maxLength: 8 }).map((batch) => JSON.stringify(batch)),
      textOver(['[', ']', '{', '}', '"', ':', ',', 'id', 'method', 'path', '1']),
    ),
    run: (input) => readRequestBatch(input, {}),
  },
];

/** Own property names of the prototypes a pollution would write to. */
export function prototypeSnapshot(): string {
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype].map((p) => Object.getOwnPropertyNames(p).sort().join(',')).join('|');
}

/** Runs one input and sorts its outcome; a parser that answers asynchronously (multipart) is awaited. */
export async function judge(target: ParserTarget, input: string): Promise<{ outcome: Outcome; error?: unknown; ms: number }> {
  const started = performance.now();
  try {
    await target.run(input);
    return { outcome: 'accepted', ms: performance.now() - started };
  } catch (error) {
    return { outcome: typed(error) ? 'refused' : 'crash', error, ms: performance.now() - started };
  }
}
