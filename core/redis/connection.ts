/**
 * One connection to Redis, for a cache or session store, built so that
 * Redis going away costs requests little and is said once:
 *
 * - Every command is bounded: `read_timeout` seconds for an answer, and no
 *   offline queue: while the connection is down a command fails at once
 *   instead of waiting (or piling up) for a reconnection. Only before the
 *   first connection is made does a command wait for it, at most
 *   `connect_timeout` seconds, so an app that has just started does not
 *   refuse its first requests.
 * - A command Redis does not answer within `read_timeout` (a frozen host, a
 *   paused or overloaded Redis) drops the connection and makes another, as
 *   Ruby's Redis client does: the client must keep every command it sent
 *   until Redis answers it, so on a connection that stays open but silent
 *   each request would add one more (with its value, a whole cached page
 *   say) for as long as the silence lasts, each waiting `read_timeout`.
 *   Until the new connection is ready, commands fail at once.
 * - Reconnection is automatic and never gives up: every 100 ms, backing off
 *   to once a second.
 * - An outage is logged once, when it begins (a warning saying what the
 *   store does meanwhile), and once when it ends (with how long it lasted):
 *   never once per request.
 * - A database the URL names that Redis refuses (`/99` where it has 16)
 *   counts as Redis being away, with that reason logged: commands never
 *   fall through to database 0, as ioredis would let them.
 *
 * The client is ioredis, an optional peer dependency loaded (synchronously,
 * with `require`) only when a Redis store is made, so apps that do not use
 * Redis never install or load it. Its types are described here by the few
 * commands used, so Signalbox's own declarations never name the package.
 *
 * Option names are those of Rails' Redis cache store (`url`,
 * `connect_timeout`, `read_timeout`, in seconds).
 */
import { createRequire } from 'node:module';
import type { Logger } from 'pino';
import { ArgumentError } from '../errors.ts';
import { LONGEST_TIMER_MS } from '../util.ts';

export interface RedisConnectionOptions {
  /** `redis://[user:password@]host:port/db` (or `rediss://` for TLS). Default `redis://127.0.0.1:6379/0`. */
  readonly url?: string | undefined;
  /** Seconds allowed to connect (default 1). */
  readonly connect_timeout?: number | undefined;
  /** Seconds allowed for an answer to each command (default 1); past it the command fails. */
  readonly read_timeout?: number | undefined;
  /** Where outages are logged; by default the app's logger (`createApp` hands it over). */
  readonly logger?: Logger | undefined;
}

/** The names `RedisConnectionOptions` takes, for the stores' option checks. */
export const REDIS_CONNECTION_OPTIONS: readonly string[] = ['url', 'connect_timeout', 'read_timeout', 'logger'];

/** The commands the stores send, as ioredis answers them. */
export interface RedisClient {
  readonly status: string;
  get(key: string): Promise<string | null>;
  getex(key: string, mode: 'PX', ms: number): Promise<string | null>;
  set(key: string, value: string): Promise<unknown>;
  set(key: string, value: string, mode: 'PX', ms: number): Promise<unknown>;
  exists(...keys: string[]): Promise<number>;
  del(...keys: string[]): Promise<number>;
  unlink(...keys: string[]): Promise<number>;
  scan(cursor: string, match: 'MATCH', pattern: string, count: 'COUNT', n: number): Promise<[string, string[]]>;
  quit(): Promise<unknown>;
  /** `reconnect`: connect again (after the retry strategy's delay) rather than close for good. */
  disconnect(reconnect?: boolean): void;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  once(event: string, listener: (...args: unknown[]) => void): unknown;
  off(event: string, listener: (...args: unknown[]) => void): unknown;
}

type RedisConstructor = new (url: string, options: Record<string, unknown>) => RedisClient;

/** What a store says it does while Redis is away, for the outage's log line. */
export interface OutageNotice {
  /** `cache` or `session`, for the log line. */
  readonly role: string;
  /** What the store does meanwhile (`cache reads miss and writes are skipped`). */
  readonly meanwhile: string;
  /** What the store does with a command Redis refuses (`the cache goes on without what Redis refuses`). */
  readonly refused: string;
}

/** How often a refusal that goes on (a full Redis refusing every write) is logged again. */
const REFUSAL_LOG_MS = 60_000;

/** The command failed because Redis cannot be reached now; the store decides what that means. */
export class RedisUnavailable extends Error {
  constructor(readonly url: string, cause?: unknown) {
    super(`Redis at ${url} cannot be reached${cause instanceof Error ? `: ${cause.message}` : ''}`);
    this.name = 'RedisUnavailable';
    if (cause !== undefined) this.cause = cause;
  }
}

const DEFAULT_URL = 'redis://127.0.0.1:6379/0';

export class RedisConnection {
  /** The URL without its password, for logs and store names. */
  readonly url: string;
  readonly #client: RedisClient;
  readonly #notice: OutageNotice;
  readonly #connectMs: number;
  readonly #readMs: number;
  #log: Logger | null;
  #connected = false;
  #outageSince: number | null = null;
  #lastError: unknown = null;
  /** Why this connection must not be used though it is up: Redis refused the database the URL names. */
  #refused: Error | null = null;
  #closed = false;
  /** A command went unanswered for `read_timeout`: the connection is being replaced, and takes no more commands. */
  #stalled = false;
  /** The wait for the first connection that commands share, while there is one. */
  #waiting: Promise<boolean> | null = null;
  /** Refusals by code: when last logged, and how many came since. */
  readonly #refusals = new Map<string, { loggedAt: number; since: number }>();
  readonly #readyListeners = new Set<() => void>();

  constructor(options: RedisConnectionOptions, notice: OutageNotice) {
    const url = options.url ?? DEFAULT_URL;
    if (typeof url !== 'string' || !/^rediss?:\/\//.test(url)) throw new ArgumentError(`A Redis url starts with redis:// or rediss://, not ${JSON.stringify(url)}`);
    checkDatabase(url);
    this.url = redact(url);
    this.#notice = notice;
    this.#log = options.logger ?? null;
    this.#connectMs = seconds('connect_timeout', options.connect_timeout, 1) * 1000;
    const readMs = seconds('read_timeout', options.read_timeout, 1) * 1000;
    this.#readMs = readMs;
    const Redis = loadClient();
    this.#client = new Redis(url, {
      connectTimeout: this.#connectMs,
      commandTimeout: readMs,
      // No queue of commands waiting for a connection: while Redis is away, each command fails at once.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      // Forever, quickly at first: a restarted Redis is back in use within a second.
      retryStrategy: (times: number) => Math.min(times * 100, 1000),
      // Errors are reported through the outage log, not as unhandled 'error' events.
      lazyConnect: false,
    });
    // Each connection selects the URL's database afresh, so a refusal holds until the next connection.
    this.#client.on('connect', () => {
      this.#refused = null;
    });
    this.#client.on('error', (error) => {
      this.#lastError = error;
      const refused = refusedDatabase(error);
      if (refused !== null) this.#refused = refused;
    });
    this.#client.on('ready', () => {
      this.#connected = true;
      this.#stalled = false;
      // The outage ends with the first command answered, not here: a Redis paused for writes, say, completes
      // the handshake and then leaves commands unanswered, and each new connection would end the outage again.
      for (const listener of this.#readyListeners) listener();
    });
    this.#client.on('close', () => {
      if (this.#connected && !this.#closed) this.outage(this.#lastError);
    });
  }

  /** Hands over the app's logger, unless one was given. */
  useLogger(log: Logger): void {
    this.#log ??= log;
  }

  /** Whether commands can be sent now. */
  get ready(): boolean {
    return this.#client.status === 'ready';
  }

  /** Whether an outage is under way (logged, and not yet over). */
  get down(): boolean {
    return this.#outageSince !== null;
  }

  /** Calls `listener` each time the connection becomes ready (after an outage, say); returns the function that stops it. */
  onReady(listener: () => void): () => void {
    this.#readyListeners.add(listener);
    return () => this.#readyListeners.delete(listener);
  }

  /**
   * Runs `command` on the client; rejects with `RedisUnavailable` at once when the connection is
   * down (before the first connection, after waiting for it at most `connect_timeout`), or when
   * the command fails or times out, starting an outage.
   */
  async run<T>(command: (client: RedisClient) => Promise<T>): Promise<T> {
    if (this.#closed) throw new RedisUnavailable(this.url, new Error('the store is closed'));
    if (this.#client.status !== 'ready') {
      if (this.#connected || !(await this.#firstConnection())) {
        const error = new RedisUnavailable(this.url, this.#lastError ?? new Error(`the connection is ${this.#client.status}`));
        this.outage(error);
        throw error;
      }
    }
    if (this.#stalled) {
      const error = new RedisUnavailable(this.url, new Error(`Redis did not answer within ${this.#readMs} ms; connecting again`));
      this.outage(error);
      throw error;
    }
    if (this.#refused !== null) {
      // ioredis reports a failed SELECT as an event and goes on in database 0: no command may reach it there.
      const error = new RedisUnavailable(this.url, this.#refused);
      this.outage(error);
      throw error;
    }
    try {
      const result = await command(this.#client);
      if (this.#outageSince !== null && this.#client.status === 'ready') this.#recovered();
      return result;
    } catch (error) {
      // A reply error is Redis refusing this command (full at maxmemory, a read-only replica, a key of
      // another type) while it answers others: reported as it is, and logged now and then, since a cache
      // that swallows it would otherwise stop keeping anything without a word. Anything else means Redis is away.
      if (error instanceof Error && error.name === 'ReplyError') {
        this.#refusal(error);
        throw error;
      }
      const cause = cutOff(error) ? new Error('the connection closed before Redis answered', { cause: error }) : error;
      this.outage(cause);
      if (timedOut(error)) this.#stall();
      throw new RedisUnavailable(this.url, cause);
    }
  }

  /**
   * Replaces a connection Redis has stopped answering on: the commands still waiting on it are failed
   * with it (they would otherwise stay queued until Redis answers, however long that is), and none is
   * sent until the new one is ready.
   */
  #stall(): void {
    if (this.#stalled || this.#closed) return;
    this.#stalled = true;
    this.#client.disconnect(true);
  }

  /**
   * Logs a refusal the first time Redis gives it (by its code: `OOM`, `READONLY`, `WRONGTYPE`...) and then
   * at most once every `REFUSAL_LOG_MS`, with how many commands it refused meanwhile: a full Redis refuses
   * every write, and a line per request would bury the log.
   */
  #refusal(error: Error): void {
    const code = /^[A-Z]+/.exec(error.message)?.[0] ?? 'ERR';
    const now = performance.now();
    const seen = this.#refusals.get(code);
    if (seen !== undefined && now - seen.loggedAt < REFUSAL_LOG_MS) {
      seen.since++;
      return;
    }
    this.#refusals.set(code, { loggedAt: now, since: 0 });
    this.#log?.warn({ redis: this.url, store: this.#notice.role, reason: error.message, refused: (seen?.since ?? 0) + 1 }, `Redis refused a command (${code}): ${this.#notice.refused}`);
  }

  /** Records that Redis is away; logs it when an outage begins. */
  outage(cause: unknown): void {
    if (this.#outageSince !== null || this.#closed) return;
    this.#outageSince = performance.now();
    const reason = cause instanceof RedisUnavailable && cause.cause instanceof Error ? cause.cause.message : cause instanceof Error ? cause.message : String(cause ?? 'connection closed');
    this.#log?.warn({ redis: this.url, store: this.#notice.role, reason }, `Redis unreachable: ${this.#notice.meanwhile} until it is back`);
  }

  #recovered(): void {
    this.#log?.info({ redis: this.url, store: this.#notice.role, outage_ms: Math.round(performance.now() - this.#outageSince!) }, 'Redis reachable again');
    this.#outageSince = null;
  }

  /** Closes the connection (politely, then at once if Redis does not answer). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#client.status === 'ready') {
      await Promise.race([this.#client.quit().catch(() => undefined), new Promise((r) => setTimeout(r, this.#connectMs).unref())]);
    }
    this.#client.disconnect();
  }

  /**
   * Waits for the first connection, at most `connect_timeout`; whether it came. Every command that comes
   * meanwhile shares the one wait: a burst of requests would otherwise add a timer and listeners each.
   */
  #firstConnection(): Promise<boolean> {
    const status = this.#client.status;
    if (status !== 'wait' && status !== 'connecting' && status !== 'connect') return Promise.resolve(false);
    this.#waiting ??= new Promise((resolve) => {
      const timer = setTimeout(() => done(false), this.#connectMs);
      const stop = this.onReady(() => done(true));
      const failed = (): void => done(false);
      this.#client.once('close', failed);
      const done = (ok: boolean): void => {
        clearTimeout(timer);
        stop();
        this.#client.off('close', failed);
        this.#waiting = null;
        resolve(ok);
      };
    });
    return this.#waiting;
  }
}

/**
 * Whether `error` is ioredis failing a command that was sent when the connection closed: it says so as
 * "Reached the max retries per request limit (which is 0). Refer to "maxRetriesPerRequest"", which would
 * send an operator to an option this connection sets on purpose (a command is never sent twice).
 */
function cutOff(error: unknown): boolean {
  return error instanceof Error && error.name === 'MaxRetriesPerRequestError';
}

/** Whether `error` is ioredis giving up on a command Redis has not answered within `commandTimeout`. */
function timedOut(error: unknown): boolean {
  return error instanceof Error && error.message === 'Command timed out';
}

/**
 * The error to answer with when `error` is Redis refusing the `SELECT` of the URL's database (a number
 * past its `databases` setting): null for any other error.
 */
function refusedDatabase(error: unknown): Error | null {
  if (!(error instanceof Error) || error.name !== 'ReplyError') return null;
  const command = (error as { command?: { name?: unknown; args?: unknown } }).command;
  if (command?.name !== 'select' || !Array.isArray(command.args)) return null;
  return new Error(`${error.message}: the URL names database ${String(command.args[0])}, which this Redis refuses (its "databases" setting is the count it has)`, { cause: error });
}

let loaded: RedisConstructor | null = null;

/** ioredis, loaded on first use; a clear error when it is not installed. */
function loadClient(): RedisConstructor {
  if (loaded !== null) return loaded;
  const require = createRequire(import.meta.url);
  let module: { default?: RedisConstructor; Redis?: RedisConstructor } | RedisConstructor;
  try {
    module = require('ioredis') as typeof module;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') {
      throw new ArgumentError('The Redis stores need the ioredis package, an optional dependency: npm install ioredis');
    }
    throw error;
  }
  const Redis = typeof module === 'function' ? module : (module.Redis ?? module.default);
  if (typeof Redis !== 'function') throw new ArgumentError('The ioredis package installed does not export a Redis client class');
  return (loaded = Redis);
}

/**
 * Refuses a URL that does not parse, or whose database (its path, or a `db` query parameter, which
 * ioredis also reads) is not a number: ioredis would send `SELECT NaN` on every connection, and
 * Redis's refusal rejects a promise of ioredis's own that nothing handles, ending the process (every
 * worker, again at each restart). A number Redis does not have (`/99`) it refuses, and refusedDatabase reports that.
 */
function checkDatabase(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ArgumentError(`A Redis url is redis://[user:password@]host:port/db, and ${JSON.stringify(redact(url))} does not parse as one`);
  }
  const path = parsed.pathname === '' || parsed.pathname === '/' ? null : parsed.pathname.slice(1);
  for (const db of [path, parsed.searchParams.get('db')]) {
    if (db !== null && !/^[0-9]+$/.test(db)) throw new ArgumentError(`A Redis url names its database by number (redis://host:6379/0), not ${JSON.stringify(db)}`);
  }
}

const LONGEST_TIMER_S = LONGEST_TIMER_MS / 1000;

function seconds(name: string, given: number | undefined, fallback: number): number {
  if (given === undefined) return fallback;
  if (typeof given !== 'number' || !(given > 0) || !Number.isFinite(given)) throw new ArgumentError(`${name} is a positive number of seconds, not ${String(given)}`);
  // Past it every command would time out at once, and Redis would seem away for good.
  if (given > LONGEST_TIMER_S) throw new ArgumentError(`${name} is at most ${LONGEST_TIMER_S} seconds (the longest timer Node keeps), not ${String(given)}`);
  return given;
}

/** The URL with any password replaced, so logs and names never carry it. */
function redact(url: string): string {
  return url.replace(/^(rediss?:\/\/)([^@/]*)@/, (_, scheme: string, auth: string) => `${scheme}${auth.includes(':') ? `${auth.slice(0, auth.indexOf(':'))}:***` : '***'}@`);
}

/** A glob (Redis `MATCH`) matching `text` literally. */
export function globLiteral(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}
