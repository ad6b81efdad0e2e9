/**
 * What the package suites share: commands run as in a fresh shell, npm with a registry out of reach
 * turned into Unavailable, and one `npm pack` per test run (it builds dist/ through prepack, which is
 * the slow part), shared by every suite that installs the package.
 */
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Unavailable } from '../harness/unavailable.ts';
import { scratchDir } from '../support/temp.ts';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface Ran { code: number | null; stdout: string; stderr: string }

/** The environment of a fresh shell: no coverage collection, no loader, no test-runner settings. */
export function freshEnv(extra: Readonly<Record<string, string | undefined>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['NODE_V8_COVERAGE', 'NODE_OPTIONS', 'NODE_ENV', 'NODE_TEST_CONTEXT']) delete env[key];
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** Runs a command to its end with the environment of a fresh shell (plus `env`). */
export function run(command: string, args: readonly string[], cwd: string, env: Readonly<Record<string, string | undefined>> = {}): Promise<Ran> {
  const child = spawn(command, args, { cwd, env: freshEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

const NETWORK = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH)\b/;

/** `npm …` that must succeed; a registry out of reach makes the suite Unavailable rather than failed. */
export async function npm(args: readonly string[], cwd: string, env: Readonly<Record<string, string | undefined>> = {}): Promise<Ran> {
  const ran = await run('npm', args, cwd, env);
  if (ran.code === 0) return ran;
  const network = NETWORK.exec(ran.stderr);
  if (network) throw new Unavailable(`the npm registry is not reachable (${network[1]}): this suite installs the packed package's dependencies from it`);
  throw new Error(`npm ${args.join(' ')} exited with ${ran.code}:\n${ran.stdout}${ran.stderr}`);
}

export interface Packed {
  /** The tarball's absolute path. */
  readonly tarball: string;
  /** The paths it holds, as npm lists them. */
  readonly files: readonly string[];
}

let packing: Promise<Packed> | null = null;

/** The package as `npm pack` makes it, made once per run. */
export function packed(): Promise<Packed> {
  packing ??= (async () => {
    const dir = scratchDir('pack');
    const pack = await npm(['pack', '--json', '--loglevel=error', '--pack-destination', dir], ROOT);
    // prepack's build prints to stdout before npm's JSON.
    const [info] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
    return { tarball: join(dir, info!.filename), files: info!.files.map((f) => f.path) };
  })();
  return packing;
}
