/**
 * The Rails peer suite's pure-function facts for the request layer: every
 * `unit` fact of `*request*.json` whose `fn` has a handler in
 * `tests/support/request-facts.ts`, replayed and compared with its output.
 * Ends with `request unit facts: N passed, M failed`.
 */
import { suite } from 'uvu';
import { loadCorpus, show } from '../support/acceptance.ts';
import { UNIT_FACT_HANDLERS, sameFact } from '../support/request-facts.ts';

interface UnitFact {
  id: string;
  fn: string;
  input: unknown;
  output: unknown;
  note?: string;
}

const corpus = loadCorpus<{ unit: UnitFact[] }>(/request/);
const test = suite('request unit facts');

let passed = 0;
let failed = 0;
const failures: string[] = [];

for (const { file, data } of corpus) {
  for (const fact of data.unit) {
    const handler = Object.hasOwn(UNIT_FACT_HANDLERS, fact.fn) ? UNIT_FACT_HANDLERS[fact.fn] : undefined;
    if (!handler) continue;
    test(`${file} ${fact.id} (${fact.fn})`, () => {
      let actual: unknown;
      try {
        actual = handler(fact.input);
      } catch (error) {
        actual = `raised ${String(error)}`;
      }
      if (sameFact(actual, fact.output)) {
        passed++;
        return;
      }
      failed++;
      const line = `${fact.id}: ${show(fact.input)} expected ${show(fact.output)}, got ${show(actual)}`;
      failures.push(line);
      throw new Error(line);
    });
  }
}

test.after(() => {
  for (const f of failures) console.log(`  FAIL ${f}`);
  console.log(`request unit facts: ${passed} passed, ${failed} failed`);
  if (failed > 0 || passed === 0) process.exitCode = 1;
});

test.run();
