/**
 * machineTable: a machine's definition read once into frozen data, which
 * the compiled engine, the diagrams, the XState engine's traces and the
 * model tests all read. Checked here against the definitions as written.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { machineTable, requestMachine } from '../../machines/index.ts';
import { nestedMachine } from './machines-fixture.ts';

const test = suite('machineTable');

type Config = { initial: string; states: Record<string, { entry?: string | string[]; invoke?: { src: string }; always?: unknown; type?: string }> };

test('reads every state of the request machine in definition order, with its entry actions and invoked actor', () => {
  const table = machineTable(requestMachine);
  const config = requestMachine.config as Config;
  assert.equal(table.states.map((s) => s.id), Object.keys(config.states));
  for (const s of table.states) {
    const written = config.states[s.id];
    assert.equal(s.entry.map((a) => a.name), written.entry === undefined ? [] : [written.entry].flat(), s.id);
    assert.ok(s.entry.every((a) => !a.inline), `${s.id}: named actions`);
    assert.equal(s.invoke.map((i) => i.src.name), written.invoke ? [written.invoke.src] : [], s.id);
    assert.is(s.initial, s.id === config.initial, s.id);
    assert.is(s.type, written.type === 'final' ? 'final' : 'atomic', s.id);
  }
  assert.is(table.root.transitions.length, 0);
});

test('is read once, frozen, and indexes each state\'s transitions in the order XState tries them', () => {
  const table = machineTable(requestMachine);
  assert.is(machineTable(requestMachine), table, 'one table per machine');
  assert.ok(Object.isFrozen(table) && Object.isFrozen(table.states) && Object.isFrozen(table.transitions) && Object.isFrozen(table.transitions[0]));
  const recognizing = table.state('recognizing')!;
  const out = recognizing.transitions.map((i) => table.transitions[i]);
  assert.equal(out.map((t) => t.guard?.name ?? null), ['routeFound', 'isUnroutedForgery', 'pathAllowsOtherMethods', null]);
  assert.equal(out.map((t) => t.order), [0, 1, 2, 3]);
  assert.ok(out.every((t) => t.eventType === '' && t.source === 'recognizing'));
  const parsing = table.state('parsing')!;
  const failed = parsing.transitions.map((i) => table.transitions[i]).filter((t) => t.eventType.startsWith('xstate.error.actor.'));
  assert.equal(failed.map((t) => t.targets[0]), ['unknownMethod', 'rescuing'], 'onError, in order');
  assert.equal(failed[0].actions, [{ name: 'storeError', inline: false }]);
});

test('taken names the transition between two states on an event, or eventlessly', () => {
  const table = machineTable(requestMachine);
  const parsing = table.state('parsing')!;
  const doneType = `xstate.done.actor.${parsing.invoke[0].id}`;
  assert.is(table.taken('parsing', 'negotiating', doneType)?.eventType, doneType);
  assert.is(table.taken('recognizing', 'methodNotAllowed', null)?.guard?.name, 'pathAllowsOtherMethods');
  assert.is(table.taken('recognizing', 'done', null), null, 'no such transition');
  assert.is(table.taken('nowhere', 'done', null), null, 'no such state');
});

test('reads nested and parallel states, after, #id targets, targetless and inline implementations', () => {
  const table = machineTable(nestedMachine);
  assert.equal(table.states.map((s) => s.id), [
    'closed', 'closed.locked', 'closed.unlocked', 'closed.ajar', 'open', 'open.hinge', 'open.hinge.still', 'open.hinge.swinging',
    'open.light', 'open.light.off', 'open.light.on', 'gone',
  ]);
  assert.is(table.state('closed.locked')!.parent, 'closed');
  assert.is(table.state('open')!.type, 'parallel');
  const from = (id: string) => table.state(id)!.transitions.map((i) => table.transitions[i]);
  assert.ok(from('closed').some((t) => t.eventType.startsWith('xstate.after.500.')), 'after becomes an xstate.after event');
  assert.equal(from('closed').find((t) => t.eventType === 'OPEN')!.targets, ['open'], '#door.open resolved');
  assert.equal(from('closed').find((t) => t.eventType === 'KNOCK')!.targets, [], 'targetless');
  const slam = from('open').find((t) => t.eventType === 'SLAM')!;
  assert.equal([slam.guard, slam.actions], [{ name: 'slammedHard', inline: true }, [{ name: 'creak', inline: true }]]);
});

test.run();
