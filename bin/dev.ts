/**
 * `signalbox dev [--watch DIR]... [SCRIPT [ARGS...]]`: runs `node SCRIPT` (default server.js) and
 * restarts it when a module under the watched directories changes (default: config, app/controllers,
 * app/models and app/helpers; templates need no restart, development reads them again).
 *
 * Why not `node --watch-path`: on Linux its recursive watcher follows the files it first saw, so a file
 * saved by renaming a new one over it (the "safe write" of many editors, `sed -i`) is missed now and
 * then, and after two or three such saves often for good, plain saves included. Here
 * only directories are watched, each with a watcher of its own: a directory's watcher reports every
 * name created, written or renamed into it, whatever the file's inode, and a directory created later
 * is watched as soon as it appears.
 *
 * The server runs in a process group of its own, so a Ctrl-C in the terminal reaches it once, through
 * this process (as a second signal would cut its drain short); this process then exits as it did.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import { constants } from 'node:os';
import { basename, extname, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { APP_CODE_DIRS } from '../core/load-errors.ts';

export const DEV_USAGE = `usage: signalbox dev [--watch DIR]... [SCRIPT [ARGS...]]
  runs node SCRIPT (default server.js) and restarts it when a module under a watched directory changes
  (default: config, app/controllers, app/models, app/helpers)`;

const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];


/** Files whose change restarts the server: modules and the JSON they import. An editor's swap and backup files are none. */
const MODULE = new Set(['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.json']);

/** How long after a change to wait for the rest of a save (an editor writes, renames and touches in a burst). */
const SETTLE_MS = 100;

/** How long a stopping server may drain before it is killed: a restart should not wait on a slow client. */
const STOP_GRACE_MS = 5_000;

/** The command's run: resolves with the exit code once it was stopped (SIGINT or SIGTERM). */
export function devCommand(args: string[], cwd: string = process.cwd()): Promise<number> {
  // Everything from the script on is the script's own: its options are not ours (`--` may mark where it starts).
  const end = args.findIndex((arg, i) => arg === '--' || (!arg.startsWith('-') && args[i - 1] !== '--watch'));
  const own = end === -1 ? args : args.slice(0, end);
  const rest = end === -1 ? [] : args.slice(args[end] === '--' ? end + 1 : end);
  let values;
  try {
    ({ values } = parseArgs({ args: own, options: { watch: { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' } }, strict: true }));
  } catch (error) {
    console.error(`signalbox dev: ${(error as Error).message}\n${DEV_USAGE}`);
    return Promise.resolve(2);
  }
  if (values.help) {
    console.log(DEV_USAGE);
    return Promise.resolve(0);
  }
  const [script = 'server.js', ...scriptArgs] = rest;
  const dirs = (values.watch ?? APP_CODE_DIRS).map((dir) => resolve(cwd, dir));
  const missing = dirs.filter((dir) => !isDirectory(dir));
  if (missing.length === dirs.length) {
    console.error(`signalbox dev: nothing to watch: ${missing.map((dir) => relative(cwd, dir) || '.').join(', ')} ${missing.length === 1 ? 'is not a directory' : 'are not directories'} here (run it in the application's directory, or name them with --watch)`);
    return Promise.resolve(1);
  }
  if (!existsSync(resolve(cwd, script))) {
    // Started, it would fail at once and wait for ever for a change that cannot help.
    console.error(`signalbox dev: ${script}: no such file (run it in the application's directory, or name the server's script)`);
    return Promise.resolve(1);
  }
  return new DevLoop(cwd, script, scriptArgs, dirs).run();
}

class DevLoop {
  readonly #watchers = new Map<string, FSWatcher>();
  readonly #changed = new Set<string>();
  #child: ChildProcess | null = null;
  #exited: Promise<number> = Promise.resolve(0);
  #settle: NodeJS.Timeout | null = null;
  #restarting = false;
  #stopping = false;
  /** Whether the running server has been told to stop: a second signal would cut its drain short. */
  #signalled = false;

  constructor(
    private readonly cwd: string,
    private readonly script: string,
    private readonly scriptArgs: readonly string[],
    private readonly dirs: readonly string[],
  ) {}

  run(): Promise<number> {
    for (const dir of this.dirs) this.#watchTree(dir);
    return new Promise((done) => {
      const stop = (signal: NodeJS.Signals): void => {
        if (this.#stopping) return;
        this.#stopping = true;
        for (const watcher of this.#watchers.values()) watcher.close();
        if (this.#settle !== null) clearTimeout(this.#settle);
        for (const name of STOP_SIGNALS) process.off(name, stop);
        // A closed terminal (SIGHUP) stops the server as `kill` would: it drains, where a hang-up would cut it.
        void this.#stopChild(signal === 'SIGHUP' ? 'SIGTERM' : signal).then((code) => done(code ?? exitCodeOf(null, signal)));
      };
      for (const name of STOP_SIGNALS) process.on(name, stop);
      // The server never outlives this process, however it ends.
      process.on('exit', () => { if (this.#running()) this.#child!.kill('SIGKILL'); });
      this.#start();
    });
  }

  #start(): void {
    const child = spawn(process.execPath, [this.script, ...this.scriptArgs], { cwd: this.cwd, stdio: ['ignore', 'inherit', 'inherit'], detached: true });
    this.#child = child;
    this.#signalled = false;
    this.#exited = new Promise((exited) => {
      child.on('exit', (code, signal) => {
        exited(exitCodeOf(code, signal));
        if (!this.#restarting && !this.#stopping) {
          const how = code !== null ? `with code ${code}` : `by ${signal}`;
          console.log(`signalbox dev: ${this.script} exited ${how}; waiting for a change to start it again`);
        }
      });
      child.on('error', (error) => {
        console.error(`signalbox dev: cannot start ${this.script}: ${error.message}`);
        exited(1);
      });
    });
  }

  #running(): boolean {
    return this.#child !== null && this.#child.exitCode === null && this.#child.signalCode === null;
  }

  /** Stops the server with `signal` (killed if it has not ended in STOP_GRACE_MS); its exit code, null if it was not running. */
  async #stopChild(signal: NodeJS.Signals): Promise<number | null> {
    if (!this.#running()) return this.#child === null ? null : this.#exited;
    // Ctrl-C while a restart stops the server waits for that stop: a second signal would cut its drain short.
    if (this.#signalled) return this.#exited;
    this.#signalled = true;
    this.#child!.kill(signal);
    const timer = setTimeout(() => { if (this.#running()) this.#child!.kill('SIGKILL'); }, STOP_GRACE_MS);
    const code = await this.#exited;
    clearTimeout(timer);
    return code;
  }

  /** Watches `dir` and every directory under it, each by a watcher of its own (see the module's comment). */
  #watchTree(dir: string): void {
    if (this.#watchers.has(dir) || !isDirectory(dir)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, (_event, name) => this.#saw(dir, name));
    } catch {
      return; // Gone already: its parent's watcher reports it if it comes back.
    }
    // A watcher that fails ends; its directory is watched again if its parent reports it made anew.
    watcher.on('error', () => { watcher.close(); this.#watchers.delete(dir); });
    this.#watchers.set(dir, watcher);
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) if (entry.isDirectory()) this.#watchTree(join(dir, entry.name));
  }

  #saw(dir: string, name: string | null): void {
    if (this.#stopping) return;
    const path = name === null ? dir : join(dir, name);
    if (name !== null && this.#watchers.has(path) && !isDirectory(path)) {
      // A watched directory removed or renamed away: its watchers (and those under it) end, so that one
      // made again under that name is watched afresh; the modules it held are gone, which is a change.
      for (const [watched, watcher] of this.#watchers) {
        if (watched === path || watched.startsWith(`${path}${sep}`)) {
          watcher.close();
          this.#watchers.delete(watched);
        }
      }
      this.#changed.add(path);
      this.#schedule();
      return;
    }
    if (name !== null && isDirectory(path)) {
      // A new directory is watched from now on; modules already in it (moved in, or written before its
      // watcher began) restart the server as a change would. An empty one is nothing to restart for.
      if (!this.#watchers.has(path)) {
        this.#watchTree(path);
        if (holdsModules(path)) {
          this.#changed.add(path);
          this.#schedule();
        }
      }
      return;
    }
    if (name !== null && !isModuleName(name)) return;
    this.#changed.add(path);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#settle !== null) clearTimeout(this.#settle);
    this.#settle = setTimeout(() => { this.#settle = null; void this.#restart(); }, SETTLE_MS);
  }

  async #restart(): Promise<void> {
    // A change saved while the server stops is read by the start that ends this restart.
    if (this.#restarting || this.#stopping) return;
    const changed = [...this.#changed].map((path) => relative(this.cwd, path) || '.');
    this.#changed.clear();
    this.#restarting = true;
    const what = changed.length === 1 ? changed[0] : `${changed[0]} and ${changed.length - 1} more`;
    console.log(`signalbox dev: ${what} changed: restarting ${this.script}`);
    await this.#stopChild('SIGTERM');
    this.#restarting = false;
    if (this.#stopping) return;
    // What was saved while the server stopped is read by the start below: it needs no restart of its own.
    this.#changed.clear();
    if (this.#settle !== null) clearTimeout(this.#settle);
    this.#settle = null;
    this.#start();
  }
}

/** A process's exit code as a shell reports it: 128 plus the signal's number when a signal ended it. */
function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  return 128 + (signal === null ? 0 : constants.signals[signal] ?? 0);
}

/**
 * Whether a name is one of the application's modules. Hidden names are an editor's (emacs'
 * `.#notes_controller.js` lock, made when a buffer is first changed), not the app's.
 */
function isModuleName(name: string): boolean {
  return MODULE.has(extname(name)) && !basename(name).startsWith('.');
}

function holdsModules(dir: string): boolean {
  try {
    return readdirSync(dir, { recursive: true, encoding: 'utf8' }).some(isModuleName);
  } catch {
    return false;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
