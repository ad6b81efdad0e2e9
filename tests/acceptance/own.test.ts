/**
 * Signalbox's own cases in the peer corpus format (tests/acceptance/own/),
 * run through the same runners as the peer corpus, for the documented keys
 * the peer data does not exercise yet. Ends with `own routing cases: ...` and
 * `own request cases: N passed, M failed`.
 */
import { join } from 'node:path';
import { ROOT, loadCorpus } from '../support/acceptance.ts';
import type { RequestCase } from '../support/fixture-app.ts';
import { ALL_RUNS, requestSuite } from '../support/request-runner.ts';
import { routingSuite, type RoutingCase } from '../support/routing-runner.ts';

const OWN = join(ROOT, 'tests/acceptance/own');

routingSuite('own routing cases', loadCorpus<{ cases: RoutingCase[] }>(/routing/, OWN));
requestSuite('own request cases', loadCorpus<{ cases: RequestCase[] }>(/request/, OWN), ALL_RUNS);
