#!/usr/bin/env node
// Runs the TypeScript command through tsx, so the package needs no build step.
import { register } from 'tsx/esm/api';

register();
await import('./signalbox.ts');
