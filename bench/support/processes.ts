/**
 * Child processes of the benchmarks: every one tracked and killed on the way out (exit, SIGINT,
 * SIGTERM), every wait bounded. Importing this module installs the exit and signal handlers.
 */
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { ROOT } from './provenance.ts';

const children = new Set<ChildProcess>();

export function killAll(signal: NodeJS.Signals = 'SIGTERM'): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null && child.pid) {
    try { process.kill(child.pid, signal); } catch { /* already gone */ }
  }
}
process.on('exit', () => killAll('SIGKILL'));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => { killAll(); process.exit(130); });

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Spawns `argv` as a tracked child. */
export function spawnTracked(argv: readonly string[], options: SpawnOptions): ChildProcess {
  return track(spawn(argv[0], argv.slice(1), options));
}

/** Resolves once `child` has exited, killing it (SIGKILL) if it is still there after `ms`. */
export function waitExit(child: ChildProcess, ms: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const timer = setTimeout(() => { if (child.pid) try { process.kill(child.pid, 'SIGKILL'); } catch { /* gone */ } done(); }, ms);
    child.once('exit', () => { clearTimeout(timer); done(); });
  });
}

/**
 * Resolves with `child`'s exit code once its output has all been read (its 'close', which can come
 * after 'exit'), killing it (SIGKILL) once `ms` have passed. Call it right after spawning.
 */
export function exitCode(child: ChildProcess, ms: number): Promise<number | null> {
  return new Promise<number | null>((done) => {
    const timer = setTimeout(() => { if (child.pid) try { process.kill(child.pid, 'SIGKILL'); } catch { /* gone */ } }, ms);
    child.once('close', (c) => { clearTimeout(timer); done(c); });
  });
}

export const sleep = (s: number) => new Promise((r) => setTimeout(r, s * 1000));

export function sh(command: string, timeoutMs = 300_000): { ok: boolean; out: string } {
  const r = spawnSync('sh', ['-c', command], { encoding: 'utf8', timeout: timeoutMs, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return { ok: r.status === 0, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

/**
 * Resolves with the first `LISTENING <port>` a server prints (`bench/servers/http-server.ts`); rejects
 * if it exits first or prints nothing within 30 s.
 */
export function listeningPort(child: ChildProcess, label: string): Promise<number> {
  return new Promise<number>((resolvePort, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${label} did not start within 30 s`)), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const m = /LISTENING (\d+)/.exec(out);
      if (m) { clearTimeout(timer); resolvePort(Number(m[1])); }
    });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`${label} exited with ${code} before listening`)); });
  });
}

/** `argv` as the results page shows it: runnable from the repository root on any machine. */
export function shown(argv: readonly string[]): string {
  return argv.join(' ').replace(process.execPath, 'node').replace(`${ROOT}/`, '');
}

/**
 * Starts a bench server (`argv`, from the repository root, in the production environment plus
 * `env`) and resolves once it prints the port it listens on.
 */
export async function startListening(argv: readonly string[], label: string, env: Record<string, string> = {}): Promise<{ child: ChildProcess; port: number; command: string }> {
  const child = spawnTracked(argv, { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, NODE_ENV: 'production', ...env } });
  const port = await listeningPort(child, label);
  return { child, port, command: shown(argv) };
}

/** SIGTERM, then SIGKILL if the child has not gone within 5 s. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.pid && child.exitCode === null) try { process.kill(child.pid, 'SIGTERM'); } catch { /* gone */ }
  await waitExit(child, 5000);
}

/** The processes under `pid`, parents before their children, with their command lines, from /proc. */
export function processTree(pid: number): { pid: number; command: string }[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const out: { pid: number; command: string }[] = [];
  const walk = (p: number): void => {
    for (const child of children.get(p) ?? []) {
      let command = '';
      try {
        command = readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
      } catch {
        continue;
      }
      out.push({ pid: child, command });
      walk(child);
    }
  };
  walk(pid);
  return out;
}
