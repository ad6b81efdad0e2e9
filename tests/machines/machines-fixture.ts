/**
 * A machine using what the request machine does not (nested and parallel
 * states, a final child, `on` events, `after`, `onDone`, `#id` and `.child`
 * targets, a targetless transition, inline guards and actions), so the
 * serialisation and the exporters are checked against all of it. Not a test
 * file itself.
 */
import { setup } from 'xstate';

export const nestedMachine = setup({
  guards: { ready: () => true },
  actions: { log: () => {}, track: () => {} },
}).createMachine({
  id: 'door',
  initial: 'closed',
  states: {
    closed: {
      initial: 'locked',
      entry: 'track',
      exit: ['log', 'track'],
      on: { KNOCK: { actions: 'log' }, OPEN: { target: '#door.open', guard: 'ready' } },
      onDone: 'open',
      after: { 500: { target: '.unlocked' } },
      states: {
        locked: { on: { UNLOCK: [{ target: 'unlocked', guard: 'ready', actions: 'log' }, { target: 'locked' }] } },
        unlocked: { on: { LOCK: 'locked', PUSH: 'ajar' } },
        ajar: { type: 'final' },
      },
    },
    open: {
      type: 'parallel',
      on: { SLAM: { target: 'closed', guard: function slammedHard() { return true; }, actions: function creak() {} } },
      states: {
        hinge: { initial: 'still', states: { still: { on: { SWING: 'swinging' } }, swinging: {} } },
        light: { initial: 'off', states: { off: { on: { TOGGLE: 'on' } }, on: { on: { TOGGLE: 'off' } } } },
      },
    },
    gone: { type: 'final' },
  },
});
