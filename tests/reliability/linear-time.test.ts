/**
 * Whatever a client sends, the work it causes grows linearly with its size:
 * each request-controlled input (the path, the query, each header the
 * framework reads, each kind of body) is sent through `app.handle` at two
 * sizes ten times apart, and the larger may cost at most about ten times as
 * much (support/linear.ts says how that is measured on a noisy machine).
 * The inputs are the shapes that make naive parsers backtrack or rescan:
 * long runs of one character, with something at the end that fails.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller } from '../../core/index.ts';
import type { App } from '../../machines/index.ts';
import { appWith, call, type CallOptions } from '../core/pipeline/support.ts';
import { assertLinear } from './support/linear.ts';

const test = suite('request input costs time linear in its size');

/** Reads everything a controller commonly reads, so each input is parsed whichever way it is used. */
class ProbeController extends Controller {
  async show(): Promise<void> {
    const credentials = await this.authenticate_with_http_basic(() => false);
    const seen = {
      params: Object.keys(this.params).length,
      cookies: Object.keys(this.request.cookies).length,
      remote_ip: this.request.remote_ip,
      host: this.request.host_with_port.length,
      ssl: this.request.ssl,
      xhr: this.request.xhr,
      fresh: this.request.etag_matches('"x"'),
      credentials,
    };
    this.respond_to((format) => {
      format.html(() => this.render({ text: JSON.stringify(seen) }));
      format.json(() => this.render({ json: seen }));
      format.xml(() => this.render({ text: '<ok/>' }));
    });
  }
}

// Counts and sizes raised far above every input here, so what is measured is the parsing, not an early
// refusal; depth keeps its default, since nesting past it is refused as soon as it is seen.
const app: App = appWith({ probe: ProbeController }, {
  config: { limits: { keys: 1e7, arrayLength: 1e7, bodyBytes: 1e9, multipart: { parts: 1e7, fieldBytes: 1e9 } } },
});

const through = (line: string, options: CallOptions) => () => call(app, line, options);
const header = (name: string, value: (n: number) => string) => (n: number) => through('GET /probe/show', { headers: { [name]: value(n) } });
const body = (type: string, text: (n: number) => string) => (n: number) => through('POST /probe/show', { headers: { 'content-type': type }, body: text(n) });

const CASES: [label: string, make: (n: number) => () => unknown][] = [
  ['Authorization: Basic, a long run of spaces and then a stray byte', header('authorization', (n) => `Basic ${' '.repeat(n)}!`)],
  ['Authorization: Basic, long valid base64', header('authorization', (n) => `Basic ${'QUFB'.repeat(n)}`)],
  ['Cookie: many pairs', header('cookie', (n) => 'a=b; '.repeat(n))],
  ['Cookie: one long value full of escapes', header('cookie', (n) => `a=${'%41'.repeat(n)}`)],
  ['Accept: many types with parameters', header('accept', (n) => 'text/html;q=0.5;level=1, '.repeat(n))],
  ['Accept: a long run of commas', header('accept', (n) => `${','.repeat(n)}x`)],
  ['Content-Type: a long run of blanks inside', header('content-type', (n) => `a${' \t'.repeat(n)}b`)],
  ['Host: a long name', header('host', (n) => `${'a.'.repeat(n)}example`)],
  ['Host: a long run of colons', header('host', (n) => `x${':'.repeat(n)}1`)],
  ['X-Forwarded-For: many addresses', header('x-forwarded-for', (n) => '10.0.0.1, '.repeat(n))],
  ['If-None-Match: many tags', header('if-none-match', (n) => '"a", W/"b", '.repeat(n))],
  ['X-Requested-With: long', header('x-requested-with', (n) => 'X'.repeat(n))],
  ['a long path of one segment', (n) => through(`GET /probe/show/${'a'.repeat(n)}`, {})],
  ['a long path of slashes', (n) => through(`GET /probe/show${'/'.repeat(n)}x`, {})],
  ['a long path of escapes', (n) => through(`GET /probe/show/${'%2F'.repeat(n)}`, {})],
  ['a query of many keys', (n) => through(`GET /probe/show?${'a[]=1&'.repeat(n)}`, {})],
  ['a query with deep brackets', (n) => through(`GET /probe/show?a${'[b]'.repeat(n)}=1`, {})],
  ['a query with a long run of brackets', (n) => through(`GET /probe/show?a${'['.repeat(n)}=1`, {})],
  ['a url-encoded body of many keys', body('application/x-www-form-urlencoded', (n) => 'a[b][]=1&'.repeat(n))],
  ['a url-encoded body of one long value', body('application/x-www-form-urlencoded', (n) => `a=${'%20+'.repeat(n)}`)],
  ['a JSON body of many keys', body('application/json', (n) => `{${Array.from({ length: n }, (_, i) => `"k${i}":1`).join(',')}}`)],
  ['a JSON body nested deep', body('application/json', (n) => `${'['.repeat(n)}${']'.repeat(n)}`)],
  ['an XML body of many siblings', body('application/xml', (n) => `<r>${'<i>1</i>'.repeat(n)}</r>`)],
  ['an XML body nested deep', body('application/xml', (n) => `${'<a>'.repeat(n)}${'</a>'.repeat(n)}`)],
  ['an XML body with a long attribute run', body('application/xml', (n) => `<r ${'a="1" '.repeat(n)}/>`)],
  ['a multipart body of many fields', body('multipart/form-data; boundary=AaB03x', (n) => `${'--AaB03x\r\nContent-Disposition: form-data; name="a[]"\r\n\r\n1\r\n'.repeat(n)}--AaB03x--\r\n`)],
  ['a multipart part header with a long filename', body('multipart/form-data; boundary=AaB03x', (n) => `--AaB03x\r\nContent-Disposition: form-data; name="f"; filename="${'a'.repeat(n)}"\r\n\r\nx\r\n--AaB03x--\r\n`)],
  ['a multipart part header with a long run of blanks', body('multipart/form-data; boundary=AaB03x', (n) => `--AaB03x\r\nContent-Disposition: form-data;${' \t'.repeat(n)}name="f"\r\n\r\nx\r\n--AaB03x--\r\n`)],
];

for (const [label, make] of CASES) {
  test(label, async () => {
    // The request must have been answered, whatever the answer: an input refused before it is parsed measures nothing.
    const answer = await (make(16)() as Promise<{ status: number }>);
    assert.ok(answer.status > 0);
    await assertLinear(label, make);
  });
}

test.run();
