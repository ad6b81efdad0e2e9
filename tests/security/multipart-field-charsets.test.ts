/**
 * A multipart field may declare any charset on its part's Content-Type.
 * Those the parser decodes are honoured; any other (`Shift_JIS`,
 * `ISO-2022-JP`, `UTF-7`, a name no decoder knows) leaves the field as Rails
 * read every field, its bytes (UTF-8 text when they are UTF-8), rather than
 * losing the value and refusing the whole form with an internal TypeError.
 * Checked over real HTTP against the security fixture app.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { serve, type RunningServer } from '../../transport/index.ts';
import { SESSION_KEY, securityApp, type SecurityApp } from './support/app.ts';
import { requestBytes, send } from './support/wire.ts';

const test = suite('a multipart field in a charset the parser cannot decode is read as its bytes');
let sec: SecurityApp;
let server: RunningServer;

test.before(async () => {
  sec = securityApp();
  server = await serve(sec.app, { port: 0 });
});

test.after(async () => {
  await server.close();
});

/** Posts a form whose `post[title]` part declares `type`, and answers the status and the title the action saw. */
async function titleSent(type: string, value: Buffer): Promise<{ status: number; title: unknown; body: string }> {
  const body = Buffer.concat([
    Buffer.from(`--X\r\nContent-Disposition: form-data; name="authenticity_token"\r\n\r\n${sec.csrf_token}\r\n`),
    Buffer.from(`--X\r\nContent-Disposition: form-data; name="post[title]"\r\nContent-Type: ${type}\r\n\r\n`, 'latin1'),
    value,
    Buffer.from('\r\n--X\r\nContent-Disposition: form-data; name="post[body]"\r\n\r\nkept\r\n--X--\r\n'),
  ]);
  const headers: [string, string][] = [['Content-Type', 'multipart/form-data; boundary=X'], ['Cookie', `${SESSION_KEY}=${sec.valid_session}`]];
  const res = await send(server.port, requestBytes({ method: 'POST', target: '/posts', headers, body }, `127.0.0.1:${server.port}`));
  const text = res.body.toString('utf8');
  let title: unknown;
  try {
    const echo = JSON.parse(text) as { params: { post?: { title?: unknown; body?: unknown } } };
    title = echo.params.post?.title;
    assert.is(echo.params.post?.body, 'kept', `${type}: the next field is read too`);
  } catch (error) {
    if (error instanceof SyntaxError) title = undefined;
    else throw error;
  }
  return { status: res.status, title, body: text };
}

test('a charset the parser has no decoder for gives the field its bytes, UTF-8 when they are UTF-8', async () => {
  const sjis = Buffer.from([0x93, 0xfa, 0x96, 0x7b]); // 日本 in Shift_JIS: not UTF-8
  for (const type of ['text/plain; charset=Shift_JIS', 'text/plain; charset="iso-2022-jp"', 'text/plain;charset=x-unknown', 'text/plain; CHARSET=utf-7; format=flowed']) {
    let sent = await titleSent(type, Buffer.from('plain words'));
    assert.is(sent.status, 201, `${type}: ${sent.body.slice(0, 120)}`);
    assert.is(sent.title, 'plain words', type);
    sent = await titleSent(type, Buffer.from('Zoë ☃'));
    assert.is(sent.title, 'Zoë ☃', `${type}: UTF-8 bytes read as UTF-8`);
    sent = await titleSent(type, sjis);
    assert.is(sent.title, sjis.toString('latin1'), `${type}: other bytes kept byte for byte`);
  }
});

test('"base64" is no charset: the field is its bytes, not their base64', async () => {
  const sent = await titleSent('text/plain; charset=base64', Buffer.from('abc'));
  assert.is(sent.status, 201);
  assert.is(sent.title, 'abc');
});

test('charsets the parser decodes are still honoured', async () => {
  let sent = await titleSent('text/plain; charset=iso-8859-1', Buffer.from([0x63, 0x61, 0x66, 0xe9]));
  assert.is(sent.title, 'café');
  sent = await titleSent('text/plain; charset=utf-16le', Buffer.from('日本', 'utf16le'));
  assert.is(sent.title, '日本');
  sent = await titleSent('text/plain; charset=UTF-8', Buffer.from('日本'));
  assert.is(sent.title, '日本');
});

test.run();
