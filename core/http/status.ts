/**
 * Rails 2.1's status table and the conversions `render :status`, `head` and
 * `redirect_to` use: a code or a symbol (`:not_found`) becomes a status line,
 * and `head` option keys become header names.
 *
 * @example
 *   interpretStatus('unprocessable_entity') // '422 Unprocessable Entity'
 *   statusCode('404 Eat Dirt')              // 404
 */
import { UnknownStatus } from '../errors.ts';
import { withoutTrailing } from '../util.ts';

/** Code → reason phrase, exactly Rails 2.1's `STATUS_CODES` (1xx and the WebDAV codes included). */
export const STATUS_CODES: Readonly<Record<number, string>> = Object.freeze({
  100: 'Continue',
  101: 'Switching Protocols',
  102: 'Processing',

  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  203: 'Non-Authoritative Information',
  204: 'No Content',
  205: 'Reset Content',
  206: 'Partial Content',
  207: 'Multi-Status',
  226: 'IM Used',

  300: 'Multiple Choices',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  304: 'Not Modified',
  305: 'Use Proxy',
  307: 'Temporary Redirect',

  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  407: 'Proxy Authentication Required',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Request Entity Too Large',
  414: 'Request-URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Requested Range Not Satisfiable',
  417: 'Expectation Failed',
  422: 'Unprocessable Entity',
  423: 'Locked',
  424: 'Failed Dependency',
  426: 'Upgrade Required',

  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  505: 'HTTP Version Not Supported',
  507: 'Insufficient Storage',
  510: 'Not Extended',
});

/** ActiveSupport's `underscore`, enough for reason phrases with the spaces removed ("Request-URITooLong"). */
function underscore(word: string): string {
  return word
    // Before the last capital of a run that starts a word (`HTMLParser`): `([A-Z]+)([A-Z][a-z])` splits the same, but backtracks quadratically over a long run.
    .replace(/(?<=[A-Z])(?=[A-Z][a-z])/g, '_')
    .replace(/([a-z\d])([A-Z])/g, '$1_$2')
    .replace(/-/g, '_')
    .toLowerCase();
}

/** Symbol → code, derived from the table as Rails derives it: `not_found`, `non_authoritative_information`, `im_used`... */
export const SYMBOL_TO_STATUS_CODE: Readonly<Record<string, number>> = Object.freeze(
  Object.fromEntries(Object.entries(STATUS_CODES).map(([code, reason]) => [underscore(reason.replace(/ /g, '')), Number(code)])),
);

/**
 * The status line for a code, a symbol name, or a ready-made line (kept as given).
 * Unknown codes give the bare number, as in Rails; unknown symbols throw `UnknownStatus`.
 * @example interpretStatus(404) // '404 Not Found'
 * @example interpretStatus('created') // '201 Created'
 * @example interpretStatus('404 Eat Dirt') // '404 Eat Dirt'
 */
export function interpretStatus(status: number | string): string {
  if (typeof status === 'number') {
    if (!Number.isInteger(status) || status < 100 || status > 999) throw new UnknownStatus(status);
    const reason = Object.hasOwn(STATUS_CODES, status) ? STATUS_CODES[status] : '';
    return `${status} ${reason}`.trim();
  }
  if (/^\d{3}(?:\s|$)/.test(status)) return status;
  if (!Object.hasOwn(SYMBOL_TO_STATUS_CODE, status)) throw new UnknownStatus(status);
  return interpretStatus(SYMBOL_TO_STATUS_CODE[status]);
}

/**
 * The numeric code of a status given as for `interpretStatus`.
 * @example statusCode('not_found') // 404
 */
export function statusCode(status: number | string): number {
  return Number.parseInt(interpretStatus(status), 10);
}

/**
 * The header name a `head` option key stands for: underscores become dashes, each word capitalised.
 * @example headOptionHeaderName('x_custom_header') // 'X-Custom-Header'
 */
export function headOptionHeaderName(key: string): string {
  // Ruby's split drops trailing empty fields, so a trailing dash disappears.
  return withoutTrailing(key.replace(/_/g, '-'), DASH)
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
    .join('-');
}

const DASH = [0x2d];
