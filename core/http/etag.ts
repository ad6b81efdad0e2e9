/**
 * ETags as every part of the framework makes and checks them: the quoted MD5
 * of the body, and whether an If-None-Match header names one.
 */
import * as crypto from 'node:crypto';

// crypto.hash (Node 20.12+) digests in one call, without a Hash object per response.
const oneShot = (crypto as { hash?: (algorithm: string, data: string | Uint8Array, encoding: 'hex') => string }).hash;
const md5Hex = oneShot
  ? (body: string | Uint8Array) => oneShot('md5', body, 'hex')
  : (body: string | Uint8Array) => crypto.createHash('md5').update(body).digest('hex');

/** The ETag of a body, quoted. @example etagOf('hi') // '"49f68a5c8493ec2c0bf489821c21fc3b"' */
export function etagOf(body: string | Uint8Array): string {
  return `"${md5Hex(body)}"`;
}

/** Whether an If-None-Match header names this ETag, its weak form, or `*`. */
export function ifNoneMatchNames(header: string | undefined, etag: string | undefined): boolean {
  if (!header || !etag) return false;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}
