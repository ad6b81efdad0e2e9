/**
 * The log as a developer reads it in a terminal. In development, with standard output a terminal, the
 * default logger writes through here: each of pino's JSON lines is read back and written as a line a
 * person reads, and an error's stack as the lines it has. Whatever else reads the log (a file, a pipe, a
 * log shipper, a test) gets pino's JSON, as in every other environment; SIGNALBOX_LOG_FORMAT=json keeps
 * JSON on a terminal too.
 *
 *   12:04:31.201  GET /notes/1 → 200 in 3.21 ms  notes#show
 *   12:04:33.868  refused 422: Invalid authenticity token (SBX_ERR_INVALID_AUTHENTICITY_TOKEN)  notes#create
 *   12:04:35.002  ERROR request errored  notes#show  status=500
 *       TemplateError: v.post is undefined (in template notes/show.html)
 *           at default (app/views/notes/show.html.js:11:25)
 */
import pino, { type Logger } from 'pino';

/** What a terminal stream offers: text written, and whether it shows colours. */
export interface TerminalStream {
  write(text: string): unknown;
  hasColors?(): boolean;
}

/** pino's default logger for `environment`: silent in test; on a terminal in development, the lines below. */
export function defaultLogger(environment: string, out: NodeJS.WriteStream = process.stdout): Logger {
  if (environment === 'test') return pino({ level: 'silent' });
  if (environment === 'development' && out.isTTY === true && process.env.SIGNALBOX_LOG_FORMAT !== 'json') return pino({ level: 'info' }, terminalDestination(out));
  return pino({ level: 'info' });
}

/** A pino destination writing each JSON line to `out` as a terminal line. */
export function terminalDestination(out: TerminalStream): { write(line: string): void } {
  const paint = out.hasColors?.() === true && process.env.NO_COLOR === undefined ? colours : plain;
  return {
    write(line: string): void {
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(line) as Record<string, unknown>;
      } catch {
        out.write(line);
        return;
      }
      out.write(`${terminalLine(record, paint)}\n`);
    },
  };
}

export type Paint = (what: 'dim' | 'good' | 'note' | 'warn' | 'bad', text: string) => string;
const plain: Paint = (_what, text) => text;
const CODES = { dim: '2', good: '32', note: '36', warn: '33', bad: '31' } as const;
const colours: Paint = (what, text) => `\u001b[${CODES[what]}m${text}\u001b[0m`;

/** Fields every line has, or that the line's own words already say. */
const SAID = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'err', 'reqId', 'controller', 'action']);

/** One log record as a line (and, for an error, its stack beneath). */
export function terminalLine(record: Record<string, unknown>, paint: Paint = plain): string {
  const time = typeof record.time === 'number' ? paint('dim', new Date(record.time).toISOString().slice(11, 23)) : '';
  const level = typeof record.level === 'number' ? record.level : 30;
  const where = typeof record.controller === 'string' ? `  ${record.controller}#${String(record.action ?? 'index')}` : '';
  const msg = String(record.msg ?? '');
  if (msg === 'request completed') {
    const status = Number(record.status);
    const tone = status >= 500 ? 'bad' : status >= 400 ? 'warn' : status >= 300 ? 'note' : 'good';
    const how = [record.transport !== undefined && record.transport !== 'http' ? String(record.transport) : '', record.cache !== undefined ? `cache ${String(record.cache)}` : ''].filter(Boolean);
    return `${time}  ${String(record.method)} ${String(record.path)} → ${paint(tone, String(status))} in ${String(record.ms)} ms${where}${how.length > 0 ? `  (${how.join(', ')})` : ''}`;
  }
  if (msg === 'request refused') {
    const code = typeof record.code === 'string' ? ` (${record.code})` : '';
    return `${time}  refused ${paint('warn', String(record.status))}: ${String(record.message)}${code}${where}`;
  }
  const name = level >= 50 ? paint('bad', level >= 60 ? 'FATAL' : 'ERROR') : level >= 40 ? paint('warn', 'WARN') : level < 30 ? paint('dim', 'DEBUG') : '';
  const fields = Object.keys(record).filter((key) => !SAID.has(key)).map((key) => `${key}=${shown(record[key])}`);
  const head = `${time}  ${name === '' ? '' : `${name} `}${msg}${where}${fields.length > 0 ? `  ${fields.join(' ')}` : ''}`;
  return record.err === undefined ? head : `${head}\n${stackOf(record.err)}`;
}

function shown(value: unknown): string {
  return typeof value === 'string' && /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
}

/** An error as pino serialised it: its stack (which starts with its type and message), indented. */
function stackOf(err: unknown): string {
  if (err === null || typeof err !== 'object') return `    ${String(err)}`;
  const { stack, type, message } = err as { stack?: unknown; type?: unknown; message?: unknown };
  const text = typeof stack === 'string' ? stack : `${String(type ?? 'Error')}: ${String(message ?? '')}`;
  return text.split('\n').map((line) => `    ${line}`).join('\n');
}
