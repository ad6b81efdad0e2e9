/**
 * The Rails peer suite's pure-function facts for the request layer: every
 * `unit` fact of `*request*.json` (the corpus's, and the project's own in
 * tests/acceptance/own/), replayed through its `fn`'s handler in
 * `tests/support/request-facts.ts` or `session-facts.ts` and compared with its output.
 * Ends with `request unit facts: N passed, M failed`.
 */
import { suite } from 'uvu';
import { join } from 'node:path';
import { ROOT, loadCorpus, show } from '../support/acceptance.ts';
import { UNIT_FACT_HANDLERS, raisedAs, sameFact } from '../support/request-facts.ts';
import { ObservedResponse, PartialFact, SESSION_FACT_HANDLERS, SKIP_RULES, partialExpected } from '../support/session-facts.ts';

const HANDLERS: Record<string, (input: any) => unknown> = { ...UNIT_FACT_HANDLERS, ...SESSION_FACT_HANDLERS };

interface UnitFact {
  id: string;
  fn: string;
  input: unknown;
  output: unknown;
  note?: string;
}

// The peer corpus's facts, and the project's own (tests/acceptance/own/) for fact kinds the corpus does not exercise.
const corpus = [...loadCorpus<{ unit?: UnitFact[] }>(/request/), ...loadCorpus<{ unit?: UnitFact[] }>(/request/, join(ROOT, 'tests/acceptance/own'))];
const test = suite('request unit facts');

let passed = 0;
let failed = 0;
const failures: string[] = [];
const partial = new Map<string, number>();
const skipped: string[] = [];

for (const { file, data } of corpus) {
  for (const fact of data.unit ?? []) {
    const skipReason = SKIP_RULES.find((rule) => rule.applies(fact))?.reason;
    if (skipReason) {
      skipped.push(`${fact.id}: ${skipReason}`);
      continue;
    }
    test(`${file} ${fact.id} (${fact.fn})`, async () => {
      const handler = Object.hasOwn(HANDLERS, fact.fn) ? HANDLERS[fact.fn] : undefined;
      let actual: unknown;
      let expected: unknown = fact.output;
      try {
        actual = handler ? await handler(fact.input) : `no handler for ${fact.fn}`;
      } catch (error) {
        const raises = (fact.output as { raises?: unknown } | null)?.raises;
        actual = typeof raises === 'string' && raisedAs(error, raises) ? fact.output : `raised ${String(error)}`;
      }
      if (actual instanceof ObservedResponse) actual = actual.as(expected);
      if (actual instanceof PartialFact) {
        partial.set(actual.reason, (partial.get(actual.reason) ?? 0) + 1);
        expected = actual.expected ?? partialExpected(fact.fn, fact.output);
        actual = actual.actual;
      }
      if (sameFact(actual, expected)) {
        passed++;
        return;
      }
      failed++;
      const line = `${fact.id}: ${show(fact.input)} expected ${show(expected)}, got ${show(actual)}`;
      failures.push(line);
      throw new Error(line);
    });
  }
}

test.after(() => {
  for (const s of skipped) console.log(`  skipped ${s}`);
  for (const [reason, count] of partial) console.log(`  ${count} fact(s) compared in part: ${reason}`);
  for (const f of failures) console.log(`  FAIL ${f}`);
  console.log(`request unit facts: ${passed} passed, ${failed} failed`);
  if (failed > 0 || passed === 0) process.exitCode = 1;
});

test.run();
