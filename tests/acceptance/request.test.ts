/**
 * The Rails peer suite for the request layer: every HTTP case of the
 * request corpus, replayed against a fixture app built from each case's fields
 * (tests/support/fixture-app.ts, checked by tests/support/request-runner.ts)
 * through `app.handle` with both engines and through every other transport
 * of tests/support/transports.ts (a real `serve()` on 127.0.0.1, the
 * WebSocket tunnel). Ends with `request acceptance: N passed, M failed`.
 * (The corpus's `unit` facts run in request-units.test.ts.)
 */
import { suite } from 'uvu';
import type { Engine } from '../../machines/index.ts';
import { TRANSPORTS, handleTransport, type Transport } from '../support/transports.ts';
import { loadCorpus } from '../support/acceptance.ts';
import type { RequestCase } from '../support/fixture-app.ts';
import { canRun, checkCase, runCase } from '../support/request-runner.ts';

/** Kinds not yet supported; reported, not run (none at present). */
const LATER_KINDS: Record<string, string> = {};

let passed = 0;
let failed = 0;
const failures: string[] = [];
const skipped = new Map<string, number>();

const corpus = loadCorpus<{ cases: RequestCase[] }>(/request/);
const test = suite('request acceptance');

// Both engines in-process; every other transport on the default engine (engines.test.ts proves the engines agree).
const RUNS: { name: string; engine: Engine; transport: Transport }[] = [
  { name: 'handle/compiled', engine: 'compiled', transport: handleTransport },
  { name: 'handle/xstate', engine: 'xstate', transport: handleTransport },
  ...TRANSPORTS.filter((t) => t !== handleTransport).map((transport) => ({ name: transport.name, engine: 'compiled' as Engine, transport })),
];

for (const { file, data } of corpus) {
  for (const c of data.cases ?? []) {
    if (LATER_KINDS[c.kind]) {
      skipped.set(c.kind, (skipped.get(c.kind) ?? 0) + 1);
      continue;
    }
    for (const r of RUNS) {
      if (!canRun(c, r.transport)) continue;
      test(`[${r.name}] ${file} ${c.id}`, async () => {
        let problems: string[];
        try {
          problems = checkCase(c, await runCase(c, r.engine, r.transport));
        } catch (error) {
          problems = [`the request failed: ${String(error)}`];
        }
        if (problems.length === 0) passed++;
        else {
          failed++;
          failures.push(`[${r.name}] ${c.id}: ${problems.join('; ')}`);
          throw new Error(problems.join('\n'));
        }
      });
    }
  }
}

test.after(() => {
  for (const [kind, count] of skipped) console.log(`  skipped ${count} ${kind} case(s): they need the ${LATER_KINDS[kind]}`);
  for (const f of failures.slice(0, 80)) console.log(`  FAIL ${f}`);
  console.log(`request acceptance: ${passed} passed, ${failed} failed`);
  if (failed > 0 || passed === 0) process.exitCode = 1;
});

test.run();
