/**
 * What a test or a hook throws when something it needs is absent from the machine (a browser,
 * a server binary). The runner never counts such a test as passed: locally it is skipped and the
 * reason printed; under CI (CI=true) it fails, since CI is expected to provide what it needs.
 * A `before` hook that throws it skips (or fails) every test of its suite.
 */
export class Unavailable extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'Unavailable';
  }
}

/** True when the environment says this is a CI run (CI=true, as CI services set it). */
export function inCI(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = (env.CI ?? '').trim().toLowerCase();
  return value !== '' && value !== '0' && value !== 'false';
}
