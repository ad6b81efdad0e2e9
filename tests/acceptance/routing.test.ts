/**
 * The Rails peer suite for routing: every `*routing*.json` file of the
 * corpus (`SIGNALBOX_ACCEPTANCE_DIR`, else tests/acceptance/data/), replayed
 * against `draw()` by tests/support/routing-runner.ts, expectation by
 * expectation. Ends with `routing acceptance: N passed, M failed`.
 */
import { loadCorpus } from '../support/acceptance.ts';
import { routingSuite, type RoutingCase } from '../support/routing-runner.ts';

routingSuite('routing acceptance', loadCorpus<{ cases: RoutingCase[] }>(/routing/));
