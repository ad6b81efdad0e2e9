/**
 * Values a route helper may be handed as a positional argument, weighted toward
 * the awkward: ids, free text, strings with URL syntax in them, non-strings,
 * and records (made by `record`) whose id is itself one of those.
 */
import fc from 'fast-check';

const URLISH = ['a.b', '1.5', 'x/y', '../..', 'a b', 'é✓', '%', '?q', '#f', '', ' '] as const;

export function awkwardValueArb(record: (id: unknown) => unknown, options: { strings?: readonly string[]; more?: readonly fc.Arbitrary<unknown>[] } = {}): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.nat({ max: 9999 }) as fc.Arbitrary<unknown> },
    { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
    { weight: 2, arbitrary: fc.constantFrom(...URLISH, ...(options.strings ?? [])) },
    { weight: 1, arbitrary: fc.constantFrom(null, undefined, false, true, 0, -1, 1.5, 1e21, NaN) },
    { weight: 2, arbitrary: fc.oneof(fc.nat({ max: 99 }), fc.constant(null), fc.constant('a.b')).map(record) },
    ...(options.more ?? []).map((arbitrary) => ({ weight: 1, arbitrary })),
  );
}
