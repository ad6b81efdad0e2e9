#!/usr/bin/env node
// The `signalbox` command. Installed from the package, it runs the compiled command in dist/.
// In the repository, where the TypeScript source sits beside this file, it runs that source
// through tsx (a development dependency), so the command never needs a build there.
import { existsSync } from 'node:fs';

const source = new URL('./signalbox.ts', import.meta.url);
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  await import('../dist/bin/signalbox.js');
}
