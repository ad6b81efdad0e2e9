/**
 * The Rails peer suite for the request layer: every HTTP case of the
 * request corpus (`SIGNALBOX_ACCEPTANCE_DIR`, else tests/acceptance/data/),
 * replayed against a fixture app built from each case's fields
 * (tests/support/fixture-app.ts) and checked by tests/support/request-runner.ts,
 * through `app.handle` with both engines and through every other transport
 * of tests/support/harness.ts (a real `serve()` on 127.0.0.1, the
 * WebSocket tunnel). Ends with `request acceptance: N passed, M failed`.
 * (The corpus's `unit` facts run in request-units.test.ts.)
 */
import { loadCorpus } from '../support/acceptance.ts';
import type { RequestCase } from '../support/fixture-app.ts';
import { requestSuite } from '../support/request-runner.ts';

requestSuite('request acceptance', loadCorpus<{ cases: RequestCase[] }>(/request/));
