/**
 * The pages development shows for an error, as Rails 2.1's rescue templates
 * did: a routing error (`No route matches "/path" with {:method=>:get}`,
 * and the routes there are), an unknown action (and the actions there are),
 * a missing template (and where it was looked for), and for any other
 * exception its class, message, backtrace (the application's frames first,
 * the framework's and Node's apart), the request's parameters and the
 * session. Pure functions of an error and facts about the request: which
 * requests may see them (local ones, in development) is decided by the
 * error renderer. Everything shown is escaped; parameters and sessions are
 * cut at a bounded size, and values named like passwords or secrets are
 * shown as [FILTERED].
 */
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MethodNotAllowed, MissingTemplate, SignalboxError, TemplateError, UnknownAction } from '../errors.ts';
import type { RouteRow } from '../routing/print.ts';

/** What the page tells about the request besides the error. */
export interface RescueFacts {
  /** The method as received (`GET`). */
  readonly method: string;
  /** The path as received, without the query. */
  readonly path: string;
  /** The controller class that ran (`NotesController`), or null before dispatch. */
  readonly controller: string | null;
  readonly action: string | null;
  /** The request's parameters; null when the request was never parsed. */
  readonly params: unknown;
  /** The session's data; null when the request never read it. */
  readonly session: unknown;
  /** The route table, shown under a routing error. */
  readonly routes?: readonly RouteRow[];
  /** The controller's actions, listed under an unknown action. */
  readonly actions?: readonly string[];
  /** A route helper called that no route defines, and the one of the drawn routes it most likely meant (null: none is near). */
  readonly helper?: { readonly missing: string; readonly meant: string | null };
  /** The application's directory: frames under it are shown relative to it. */
  readonly root?: string;
}

/** Which page an error gets. */
export type RescueTemplate = 'routing_error' | 'unknown_action' | 'missing_template' | 'template_error' | 'diagnostics';

export function rescueTemplate(error: unknown): RescueTemplate {
  if (error instanceof MethodNotAllowed) return 'routing_error';
  if (error instanceof SignalboxError && error.code === 'SBX_ERR_ROUTING') return 'routing_error';
  if (error instanceof UnknownAction) return 'unknown_action';
  if (error instanceof MissingTemplate) return 'missing_template';
  if (error instanceof TemplateError) return 'template_error';
  return 'diagnostics';
}

/** Rails' words for a path no route matches. */
export function noRouteMessage(method: string, path: string): string {
  return `No route matches ${JSON.stringify(path)} with {:method=>:${method.toLowerCase()}}`;
}

/** The development page for `error`. */
export function rescuePage(error: unknown, facts: RescueFacts): string {
  switch (rescueTemplate(error)) {
    case 'routing_error': return routingPage(error as SignalboxError, facts);
    case 'unknown_action': return unknownActionPage(error as UnknownAction, facts);
    case 'missing_template': return missingTemplatePage(error as MissingTemplate, facts);
    case 'template_error': return exceptionPage(error as TemplateError, facts);
    default: return exceptionPage(error, facts);
  }
}

function routingPage(error: SignalboxError, facts: RescueFacts): string {
  return layout('Routing Error', `<h1>Routing Error</h1>
<p class="message">${escape(error.message)}</p>
${routesTable(facts.routes ?? [])}
${requestSection(facts)}`);
}

function unknownActionPage(error: UnknownAction, facts: RescueFacts): string {
  const actions = facts.actions ?? [];
  const listed = actions.length === 0 ? '' : `<p>Actions: ${actions.map((a) => `<code>${escape(a)}</code>`).join(', ')}</p>`;
  return layout('Unknown action', `<h1>Unknown action</h1>
<p class="message">${escape(error.message)}</p>
${listed}
${requestSection(facts)}`);
}

function missingTemplatePage(error: MissingTemplate, facts: RescueFacts): string {
  return layout('Template is missing', `<h1>Template is missing${where(facts)}</h1>
<p class="message">${escape(error.message)}</p>
<p>Looked for:</p>
<ul>${error.searched.map((path) => `<li><code>${escape(path)}</code></li>`).join('')}</ul>
${tracesSection(error, facts)}
${requestSection(facts)}`);
}

function exceptionPage(error: unknown, facts: RescueFacts): string {
  const name = classOf(error);
  const template = error instanceof TemplateError ? `<p>In template <code>${escape(error.template)}</code></p>` : '';
  // A template error's own stack is the framework's; the template's frames are in its cause.
  const traced = error instanceof TemplateError && error.cause !== undefined ? error.cause : error;
  return layout(`${name}${where(facts)}`, `<h1>${escape(name)}${escape(where(facts))}</h1>
<pre class="message">${escape(messageOf(error))}</pre>
${template}
${helperHint(facts)}
${tracesSection(traced, facts)}
${causes(error, facts)}
${requestSection(facts)}`);
}

function helperHint(facts: RescueFacts): string {
  const helper = facts.helper;
  if (helper === undefined) return '';
  const meant = helper.meant === null ? '' : ` Did you mean <code>${escape(helper.meant)}</code>?`;
  return `<p class="hint">No route defines <code>${escape(helper.missing)}</code>.${meant} A named route's helpers are its name with <code>_path</code> and <code>_url</code>; <code>signalbox routes</code> lists the names.</p>`;
}

function where(facts: RescueFacts): string {
  if (facts.controller === null) return '';
  return ` in ${facts.controller}${facts.action === null ? '' : `#${facts.action}`}`;
}

/** The error's class name, as Rails headed its page. */
export function classOf(error: unknown): string {
  if (error instanceof Error) return error.name || error.constructor.name || 'Error';
  return `${error === null ? 'null' : typeof error} thrown`;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return safeString(error);
}

function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** A backtrace in three views: the application's frames, the framework's and Node's, and all of them. */
export interface Backtrace {
  readonly application: readonly string[];
  readonly framework: readonly string[];
  readonly full: readonly string[];
}

/** Where Signalbox's own modules are (core/, machines/, transport/ beside this module's folder), in the repository and installed alike. */
const OWN_DIRS = ((): readonly string[] => {
  const packageRoot = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
  return ['core', 'machines', 'transport'].map((d) => join(packageRoot, d) + sep);
})();

/** The most frames a page shows of one stack. */
const MAX_FRAMES = 200;

/** Splits a stack into frames, each with file URLs shown as paths (relative to `root` when under it). */
export function backtrace(stack: string, root?: string, frameworkDirs: readonly string[] = OWN_DIRS): Backtrace {
  const frames = stack.split('\n').filter((line) => /^\s+at /.test(line)).slice(0, MAX_FRAMES).map((line) => line.trim());
  const application: string[] = [];
  const framework: string[] = [];
  const full: string[] = [];
  for (const frame of frames) {
    const file = frameFile(frame);
    const shown = file === null ? frame : frame.replace(file.raw, display(file.path, root));
    const own = file === null || file.path.startsWith('node:') || file.path.includes(`${sep}node_modules${sep}`) || frameworkDirs.some((d) => file.path.startsWith(d));
    (own ? framework : application).push(shown);
    full.push(shown);
  }
  return { application, framework, full };
}

/** The file a frame points at: `at f (file:///a/b.js:1:2)`, `at file:///a/b.js:1:2`, `at f (node:internal/x:1:2)`. */
function frameFile(frame: string): { raw: string; path: string } | null {
  const located = /\(([^()]+?):\d+:\d+\)$/.exec(frame) ?? /^at (?:async )?([^\s()]+?):\d+:\d+$/.exec(frame);
  if (located === null) return null;
  const raw = located[1]!;
  if (!raw.startsWith('file://')) return { raw, path: raw };
  try {
    const query = raw.indexOf('?');
    return { raw, path: fileURLToPath(query < 0 ? raw : raw.slice(0, query)) };
  } catch {
    return { raw, path: raw };
  }
}

function display(path: string, root: string | undefined): string {
  if (root === undefined || path.startsWith('node:')) return path;
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep) ? rel : path;
}

function tracesSection(error: unknown, facts: RescueFacts): string {
  const stack = error instanceof Error && typeof error.stack === 'string' ? error.stack : '';
  const trace = backtrace(stack, facts.root);
  const root = facts.root === undefined ? '' : `<p class="root">Application root: <code>${escape(facts.root)}</code></p>`;
  return `${root}
<h2>Application Trace</h2>
<pre class="trace">${trace.application.length === 0 ? '(no frames of the application)' : escape(trace.application.join('\n'))}</pre>
<details><summary>Framework Trace (${trace.framework.length} frames: Signalbox, node_modules and Node)</summary><pre class="trace">${escape(trace.framework.join('\n'))}</pre></details>
<details><summary>Full Trace</summary><pre class="trace">${escape(trace.full.join('\n'))}</pre></details>`;
}

/** The chain of `cause`s, a few deep. */
function causes(error: unknown, facts: RescueFacts): string {
  let out = '';
  let cause = error instanceof Error ? error.cause : undefined;
  for (let depth = 0; cause !== undefined && depth < 5; depth++) {
    const trace = cause instanceof Error && typeof cause.stack === 'string' ? backtrace(cause.stack, facts.root).full : [];
    out += `<h2>Caused by ${escape(classOf(cause))}</h2>
<pre class="message">${escape(messageOf(cause))}</pre>
<details><summary>Its trace</summary><pre class="trace">${escape(trace.join('\n'))}</pre></details>\n`;
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return out;
}

function routesTable(routes: readonly RouteRow[]): string {
  if (routes.length === 0) return '<p>The application has no routes.</p>';
  const rows = routes.map((r) => `<tr><td>${escape(r.name)}</td><td>${escape(r.method)}</td><td><code>${escape(r.path)}</code></td><td>${escape(r.controller ?? '')}${r.action === null ? '' : `#${escape(r.action)}`}</td></tr>`);
  return `<h2>Routes</h2>
<p>Routes match in this order, the first one wins:</p>
<table><thead><tr><th>name</th><th>method</th><th>path</th><th>controller#action</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>`;
}

function requestSection(facts: RescueFacts): string {
  const session = facts.session === null ? '<p>The request did not read its session.</p>' : `<pre>${escape(inspect(facts.session))}</pre>`;
  return `<h2>Request</h2>
<p><code>${escape(facts.method)} ${escape(facts.path)}</code></p>
<p><b>Parameters</b>:</p>
<pre>${facts.params === null ? 'None (the request was refused before its parameters were read)' : escape(inspect(facts.params))}</pre>
<details><summary>Session dump</summary>${session}</details>`;
}

/** The most characters a page shows of one value. */
const MAX_INSPECT = 20_000;
const FILTERED = /passw|secret/i;

/** A value as readable text: JSON, with passwords and secrets filtered and bytes summarised. */
export function inspect(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value, (key, v: unknown) => {
      if (key !== '' && FILTERED.test(key)) return '[FILTERED]';
      if (v instanceof Uint8Array) return `<${v.byteLength} bytes>`;
      if (typeof v === 'bigint') return `${v}n`;
      if (typeof v === 'function' || typeof v === 'symbol') return undefined;
      return v;
    }, 2) ?? safeString(value);
  } catch {
    text = safeString(value);
  }
  return text.length > MAX_INSPECT ? `${text.slice(0, MAX_INSPECT)}\n… (${text.length - MAX_INSPECT} more characters)` : text;
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

// Every value these pages show sits in element content, never in an attribute, where only these three need escaping.
function escape(text: string): string {
  return text.replace(/[&<>]/g, (c) => ESCAPES[c]!);
}

function layout(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escape(title)}</title>
<style>
body { background: #fff; color: #333; font: 14px/1.5 system-ui, sans-serif; margin: 0 2em 2em; }
h1 { color: #900; font-size: 1.6em; margin: .8em 0 .4em; }
h2 { font-size: 1.15em; margin: 1.4em 0 .4em; }
pre { background: #eee; padding: .8em; overflow: auto; white-space: pre-wrap; font-size: 12px; }
.message { font-size: 1.1em; }
table { border-collapse: collapse; font-size: 12px; }
td, th { border-bottom: 1px solid #ddd; padding: .2em .8em; text-align: left; }
summary { cursor: pointer; color: #900; margin: .6em 0; }
</style>
</head>
<body>
${body}
<p><small>Shown because this is development and the request came from this machine; production shows public/&lt;status&gt;.html.</small></p>
</body>
</html>
`;
}
