/**
 * A regression test: the comment above the test says what used to happen,
 * and the test keeps it from coming back.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ArgumentError, draw } from '../../core/index.ts';

/**
 * core/routing/helpers.ts `modelName`: the "Cannot tell the model of
 * ..." message is built with `String(record)`, which throws a TypeError
 * ("Cannot convert object to primitive value") for a prototype-less record,
 * so `polymorphic_path(Object.create(null))` fails with TypeError instead of
 * the ArgumentError every other unnamed record gets.
 */
test('a prototype-less record gets the ArgumentError, not a TypeError', () => {
  const h = draw((map) => map.resources('posts')).helpers();
  const record = Object.assign(Object.create(null) as Record<string, unknown>, { id: 1 });
  let thrown: unknown = null;
  try {
    h.polymorphic_path(record);
  } catch (e) {
    thrown = e;
  }
  assert.ok(thrown instanceof ArgumentError, `threw ${String((thrown as Error).name)}: ${String((thrown as Error).message)}`);
});

test.run();
