/**
 * A session cookie that is not exactly what the app signed is worth
 * nothing: every single-character change, every bit flip, every truncation,
 * another secret or digest, or well-signed data that is not a session, gives
 * an empty session (never an error, never the altered data), and the
 * response tells the browser to drop the cookie.
 */
import { createHmac } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cookieSessionStore } from '../../core/index.ts';
const ENGINES = ['compiled', 'xstate'] as const;
import { SECRET, SESSION_KEY, VALID_SESSION_DATA, securityApp, type SecurityApp } from './support/app.ts';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=';
const HEX = '0123456789abcdef';

interface Outcome {
  status: number;
  session: Record<string, unknown> | null;
  setCookie: string[];
}

async function visit(sec: SecurityApp, cookieValue: string): Promise<Outcome> {
  const res = await sec.app.handle({ method: 'GET', url: '/posts', headers: { host: '127.0.0.1', cookie: `${SESSION_KEY}=${cookieValue}` } });
  const setCookie = res.headers['Set-Cookie'] ?? res.headers['set-cookie'] ?? [];
  const body = typeof res.body === 'string' ? res.body : Buffer.from(res.body).toString('utf8');
  let session: Record<string, unknown> | null = null;
  try {
    session = (JSON.parse(body) as { session: Record<string, unknown> }).session;
  } catch {
    session = null;
  }
  return { status: res.status, session, setCookie: Array.isArray(setCookie) ? setCookie : [setCookie] };
}

/** The cookie value with the character at `i` replaced by a different one of the same alphabet. */
function replaced(value: string, i: number): string {
  const alphabet = value.indexOf('--') < i ? HEX : BASE64;
  const pool = alphabet.includes(value[i]) ? alphabet : BASE64;
  const next = pool[(pool.indexOf(value[i]) + 7) % pool.length];
  return value.slice(0, i) + (next === value[i] ? pool[(pool.indexOf(next) + 1) % pool.length] : next) + value.slice(i + 1);
}

function flipped(value: string, i: number, bit: number): string {
  return value.slice(0, i) + String.fromCharCode(value.charCodeAt(i) ^ (1 << bit)) + value.slice(i + 1);
}

function assertRefused(outcome: Outcome, label: string): void {
  assert.is(outcome.status, 200, label);
  assert.equal(outcome.session, {}, label);
  const expired = (c: string) => {
    const expires = /Expires=([^;]+)/i.exec(c)?.[1];
    return expires !== undefined && Date.parse(expires) < Date.now();
  };
  assert.ok(outcome.setCookie.some((c) => c.startsWith(`${SESSION_KEY}=;`) && expired(c)), `${label}: the cookie is deleted`);
}

for (const engine of ENGINES) {
  const tamper = suite(`tampered session cookies [${engine}]`);
  let sec: SecurityApp;
  tamper.before(() => {
    sec = securityApp(engine);
  });

  tamper('the untouched cookie loads its session and writes nothing back', async () => {
    const outcome = await visit(sec, sec.valid_session);
    assert.equal(outcome.session, { ...VALID_SESSION_DATA });
    assert.equal(outcome.setCookie, []);
  });

  tamper('changing any one character gives an empty session and deletes the cookie', async () => {
    const value = sec.valid_session;
    for (let i = 0; i < value.length; i++) {
      if (value[i] === '-' && value.slice(i - 1, i + 2).includes('--')) continue;
      assertRefused(await visit(sec, replaced(value, i)), `character ${i}`);
    }
  });

  tamper('flipping any bit of any byte gives an empty session', async () => {
    const value = sec.valid_session;
    for (let i = 0; i < value.length; i++) {
      for (let bit = 0; bit < 7; bit++) {
        const variant = flipped(value, i, bit);
        // A flip into a cookie delimiter ends the value early: still a truncated cookie, still refused.
        const outcome = await visit(sec, variant);
        assert.equal(outcome.session, {}, `byte ${i} bit ${bit}`);
        assert.ok(outcome.status === 200, `byte ${i} bit ${bit}`);
      }
    }
  });

  tamper('every truncation, and the digest or the data alone, gives an empty session', async () => {
    const value = sec.valid_session;
    for (let length = 1; length < value.length; length++) assertRefused(await visit(sec, value.slice(0, length)), `first ${length} characters`);
    const [data, digest] = value.split('--');
    for (const part of [data, digest, `--${digest}`, `${data}--`, `${data}----${digest}`, `${value}--${digest}`]) {
      assertRefused(await visit(sec, part), part.slice(0, 30));
    }
  });

  tamper('a cookie signed with another secret or another digest gives an empty session', async () => {
    const other = cookieSessionStore({ key: SESSION_KEY, secret: 'another secret, just as long as the real one' });
    assertRefused(await visit(sec, other.encode({ ...VALID_SESSION_DATA, admin: true }, 'another secret, just as long as the real one')), 'another secret');
    const sha256 = cookieSessionStore({ key: SESSION_KEY, secret: SECRET, digest: 'SHA256' });
    assertRefused(await visit(sec, sha256.encode({ ...VALID_SESSION_DATA }, SECRET)), 'SHA256 instead of SHA1');
    const uppercase = sec.valid_session.replace(/--([0-9a-f]+)$/, (_, mac: string) => `--${mac.toUpperCase()}`);
    assertRefused(await visit(sec, uppercase), 'the digest in upper case');
  });

  tamper('correctly signed data that is not a session object gives an empty session', async () => {
    const sign = (payload: string) => `${payload}--${createHmac('sha1', SECRET).update(payload).digest('hex')}`;
    for (const json of ['[1,2]', '"text"', '42', 'null', '{not json', '']) {
      const payload = Buffer.from(json).toString('base64');
      assertRefused(await visit(sec, sign(payload)), json || 'empty data');
    }
    // A signed __proto__ key is data, never a prototype.
    const outcome = await visit(sec, sign(Buffer.from('{"__proto__":{"admin":true},"user_id":7}').toString('base64')));
    assert.equal(outcome.session, { user_id: 7 });
    assert.is(({} as Record<string, unknown>).admin, undefined);
  });

  tamper.run();
}
