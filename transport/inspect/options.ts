/**
 * `serve({ inspect })`: whether the inspector is on, and where. Internal to
 * the transports.
 */
import { ArgumentError } from '../../core/errors.ts';
import type { App } from '../../machines/app.ts';

export interface InspectOptions {
  /** Where the page lives (default `/__inspect`); its trace channel is `<path>/trace`. */
  readonly path?: string | undefined;
}

export interface InspectSettings {
  readonly path: string;
  readonly tracePath: string;
}

export const INSPECT_DEFAULT_PATH = '/__inspect';

/**
 * The inspector's settings, or null when it is off: `true` or an object
 * turns it on, `false` off; unset, it is on in the development environment
 * only.
 */
export function inspectSettings(app: App, option: boolean | InspectOptions | undefined): InspectSettings | null {
  // `?.`: stand-in apps (test doubles of App) carry no config, and are not in development.
  const on = option === undefined ? app.config?.environment === 'development' : option !== false;
  if (!on) return null;
  const path = (typeof option === 'object' && option !== null ? option.path : undefined) ?? INSPECT_DEFAULT_PATH;
  // The page's <base href> is built from it, so it is held to plain path characters.
  if (typeof path !== 'string' || !/^(\/[A-Za-z0-9._~-]+)+$/.test(path)) {
    throw new ArgumentError(`The inspector path must be "/" and plain path segments, with no trailing slash or query: ${JSON.stringify(path)}`);
  }
  return { path, tracePath: `${path}/trace` };
}
