/**
 * Where a redirect goes, and making sure the `Location` header cannot be
 * used against the client: no CR/LF/NUL (response splitting), nothing above
 * 0x7E unescaped, never a protocol-relative `//host` (open redirect), and a
 * relative target always lands on the request's own host.
 */
import { ActionControllerError } from '../errors.ts';

/**
 * Absolute targets: anything that starts with a scheme (`https://`, `mailto:`, an app's own
 * `x-app+scheme.v2:open`), as Rails takes them, except the schemes that run script or carry
 * a document (`javascript:`, `vbscript:`, `data:`): those are taken as a path on this site, so
 * a redirect can never run script.
 */
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
const SCRIPT_SCHEMES: ReadonlySet<string> = new Set(['javascript', 'vbscript', 'data']);
/**
 * The schemes a browser reads a host from even without the `//` (WHATWG URL's special schemes):
 * `https:evil.example`, `http:/evil.example` and `http:\\evil.example` all lead to evil.example.
 * Rails took a target as a URL only with its `://` (`%r{^\w+://}`); without it, it is a path here.
 */
const HOST_SCHEMES: ReadonlySet<string> = new Set(['http', 'https', 'ws', 'wss', 'ftp', 'file']);

function isAbsolute(target: string): boolean {
  const scheme = SCHEME.exec(target);
  if (scheme === null) return false;
  const name = scheme[1].toLowerCase();
  if (SCRIPT_SCHEMES.has(name)) return false;
  return !HOST_SCHEMES.has(name) || target.startsWith('//', scheme[0].length);
}

/**
 * Makes a redirect target safe for a `Location` header.
 * @example sanitiseLocation('/a\r\nSet-Cookie: x=1') // '/aSet-Cookie: x=1'
 */
export function sanitiseLocation(target: string): string {
  // Control characters split headers; drop them outright rather than escape them.
  const out = target.replace(/[\u0000-\u001f\u007f]/g, '');
  // Anything beyond printable ASCII is percent-encoded, byte by byte (a space is legal in a header value).
  // A lone surrogate (JSON can carry one: `"\ud800"`) has no UTF-8 bytes: it is sent as U+FFFD.
  return out.replace(/[^\u0020-\u007e]/gu, (c) => encodeURIComponent(isLoneSurrogate(c) ? '\ufffd' : c));
}

function isLoneSurrogate(c: string): boolean {
  return c.length === 1 && c >= '\ud800' && c <= '\udfff';
}

/** Resolves a string target against the request: absolute URLs stay, paths get the request's scheme and host. */
export function absoluteLocation(target: string, protocol: string, hostWithPort: string): string {
  const clean = sanitiseLocation(target);
  return isAbsolute(clean) ? clean : `${protocol}${hostWithPort}${sitePath(clean)}`;
}

/**
 * A target that is no URL as a path from the site's root: its leading slashes and backslashes, which
 * would lead off the site (`//evil.example/x`, `/\evil.example`), become one slash.
 */
function sitePath(target: string): string {
  return target.replace(/^[/\\]*/, '/');
}

/**
 * A Location given as it is (`head`'s and `render`'s `location`, which Rails sends unexpanded): made
 * safe, and never leading off the site by a path that a browser would read as a host (`//evil.example`,
 * `/\evil.example`, `https:evil.example`) or as script (`javascript:...`): those become paths here.
 * A URL and a plain relative path (`posts/1`) stay as given.
 * @example relativeLocation('//evil.example/x') // '/evil.example/x'
 */
export function relativeLocation(target: string): string {
  const clean = sanitiseLocation(target);
  if (isAbsolute(clean) || !(clean.startsWith('/') || clean.startsWith('\\') || SCHEME.test(clean))) return clean;
  return sitePath(clean);
}

/** The body Rails sends with a redirect, the URL HTML-escaped. */
export function redirectBody(location: string): string {
  return `<html><body>You are being <a href="${escapeHtml(location)}">redirected</a>.</body></html>`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Refuses targets that cannot be redirected to at all. */
export function assertTarget(target: unknown): void {
  if (target === null || target === undefined || target === '') {
    throw new ActionControllerError('Cannot redirect to nil!');
  }
}
