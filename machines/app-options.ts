/**
 * `createApp`'s options, checked by name and type before anything is built. TypeScript catches most of
 * this in a typed project; an application in plain JavaScript (what `signalbox new` writes) does not, and
 * there a misspelt option or config key used to be ignored, a boolean written as the text 'false' to
 * count as true, and a wrong type to fail on the first request. Each is now an `ArgumentError` naming it.
 */
import { Controller } from '../core/controller/base.ts';
import { ArgumentError } from '../core/errors.ts';
import { limitsProblem } from '../core/request/limits.ts';
import { isMountPoint } from '../core/routing/params.ts';
import { checkOptionNames, shownValue } from '../core/options.ts';

const APP_OPTIONS: ReadonlySet<string> = new Set([
  'routes', 'root', 'controllers', 'publicDir', 'views', 'logger', 'engine', 'environment', 'mime', 'config',
  'services', 'session', 'session_store', 'cache_store', 'page_cache_directory',
]);

const BOOLEAN_CONFIG = ['consider_all_requests_local', 'defaultErrorPages', 'allow_forgery_protection', 'trustProxy', 'perform_caching', 'cacheHeader', 'cache_template_loading'];
const CONFIG_KEYS: ReadonlySet<string> = new Set([...BOOLEAN_CONFIG, 'default_charset', 'limits', 'relative_url_root', 'forgeryExemptTypes', 'hosts']);

/** The environments an app runs as. */
export const ENVIRONMENTS = ['development', 'test', 'production'] as const;
const ENGINES = ['compiled', 'xstate'];

/** Throws an `ArgumentError` for the first option of `options` that createApp does not know or cannot use. */
export function checkAppOptions(options: object): void {
  const o = options as Readonly<Record<string, unknown>>;
  checkOptionNames('createApp', o, APP_OPTIONS);
  if (isObject(o.config)) {
    if ('environment' in (o.config as object)) throw new ArgumentError('createApp: environment is an option of createApp, not of its config');
    checkOptionNames('createApp config', o.config, CONFIG_KEYS);
  }
  const problem = appOptionsProblem(o);
  if (problem !== null) throw new ArgumentError(`createApp: ${problem}`);
}

function appOptionsProblem(o: Readonly<Record<string, unknown>>): string | null {
  if (o.controllers === undefined || o.controllers === null || typeof o.controllers !== 'object') return `controllers must be an object (or Map) of controller classes by path, not ${shownValue(o.controllers)}`;
  // A controller that is not one is caught here, rather than as a 500 on the first request routed to it.
  for (const [name, klass] of o.controllers instanceof Map ? o.controllers : Object.entries(o.controllers)) {
    if (typeof klass !== 'function' || !(klass === Controller || klass.prototype instanceof Controller)) {
      return `controllers[${JSON.stringify(name)}] must be a class extending Controller, not ${klass === null ? 'null' : typeof klass === 'function' ? `the function ${(klass as { name: string }).name || '(anonymous)'}` : typeof klass}`;
    }
  }
  if (o.environment !== undefined && !(ENVIRONMENTS as readonly unknown[]).includes(o.environment)) return `environment must be one of ${ENVIRONMENTS.map((e) => `'${e}'`).join(', ')}, not ${shownValue(o.environment)}`;
  if (o.engine !== undefined && !ENGINES.includes(o.engine as string)) return `engine must be 'compiled' or 'xstate', not ${shownValue(o.engine)}`;
  for (const key of ['root', 'publicDir'] as const) if (o[key] !== undefined && typeof o[key] !== 'string') return `${key} must be a directory path, not ${shownValue(o[key])}`;
  if (o.page_cache_directory !== undefined && o.page_cache_directory !== false && typeof o.page_cache_directory !== 'string') return `page_cache_directory must be a directory path or false, not ${shownValue(o.page_cache_directory)}`;
  if (o.views !== undefined && typeof o.views !== 'string' && !hasMethods(o.views, ['find'])) return `views must be a directory path or a view resolver, not ${shownValue(o.views)}`;
  if (o.logger !== undefined && o.logger !== false && !hasMethods(o.logger, ['info', 'warn', 'error', 'child'])) return `logger must be a pino logger, or false for none, not ${shownValue(o.logger)}`;
  if (o.mime !== undefined && !hasMethods(o.mime, ['lookup', 'lookup_by_extension'])) return `mime must be a MIME registry (createMimeRegistry()), not ${shownValue(o.mime)}`;
  for (const key of ['services', 'cache_store'] as const) if (o[key] !== undefined && !isObject(o[key])) return `${key} must be an object, not ${shownValue(o[key])}`;
  for (const key of ['session', 'session_store'] as const) if (o[key] !== undefined && o[key] !== false && !isObject(o[key])) return `${key} must be an object, or false for none, not ${shownValue(o[key])}`;
  return o.config === undefined ? null : configProblem(o.config);
}

function configProblem(config: unknown): string | null {
  if (!isObject(config)) return `config must be an object, not ${shownValue(config)}`;
  const c = config as Readonly<Record<string, unknown>>;
  for (const key of BOOLEAN_CONFIG) if (c[key] !== undefined && typeof c[key] !== 'boolean') return `config.${key} must be true or false, not ${shownValue(c[key])}`;
  if (c.default_charset !== undefined && c.default_charset !== null && typeof c.default_charset !== 'string') return `config.default_charset must be a charset name or null, not ${shownValue(c.default_charset)}`;
  if (c.relative_url_root !== undefined && (typeof c.relative_url_root !== 'string' || !isMountPoint(c.relative_url_root))) return `config.relative_url_root must be a path starting with '/', not ${shownValue(c.relative_url_root)}`;
  if (c.forgeryExemptTypes !== undefined && !listOf(c.forgeryExemptTypes, (t) => typeof t === 'string')) return 'config.forgeryExemptTypes must be a list of MIME types';
  if (c.hosts !== undefined && !listOf(c.hosts, (h) => typeof h === 'string' || h instanceof RegExp)) return 'config.hosts must be a list of host names and RegExps (a name starting with "." admits its subdomains)';
  return limitsProblem(c.limits);
}

function isObject(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function hasMethods(value: unknown, names: readonly string[]): boolean {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && names.every((n) => typeof (value as Record<string, unknown>)[n] === 'function');
}

function listOf(value: unknown, each: (item: unknown) => boolean): boolean {
  return Array.isArray(value) && value.every(each);
}
