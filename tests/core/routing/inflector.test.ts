/**
 * Per-route-set inflection over `pluralize`, never touching its global rules.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import pluralize from 'pluralize';
import { createInflector, draw, underscore } from '../../../core/index.ts';

const test = suite('inflector');

test('without rules it inflects as pluralize does', () => {
  const inf = createInflector();
  assert.is(inf.plural('post'), 'posts');
  assert.is(inf.singular('posts'), 'post');
  assert.is(inf.plural('person'), 'people');
  assert.is(inf.singular('people'), 'person');
  assert.is(inf.plural('sheep'), 'sheep');
  assert.equal(inf.rules, { irregular: [], uncountable: [] });
});

test('only the last word of an underscored name is inflected', () => {
  const inf = createInflector();
  assert.is(inf.plural('line_item'), 'line_items');
  assert.is(inf.singular('line_items'), 'line_item');
  assert.is(inf.singular('news_people'), 'news_person');
});

test('irregular rules apply both ways, and an irregular plural stays plural', () => {
  const inf = createInflector({ irregular: [['person', 'peeps']] });
  assert.is(inf.plural('person'), 'peeps');
  assert.is(inf.singular('peeps'), 'person');
  assert.is(inf.plural('peeps'), 'peeps');
  assert.is(inf.singular('person'), 'person');
  assert.is(inf.plural('sales_person'), 'sales_peeps');
});

test('rules match case-insensitively', () => {
  const inf = createInflector({ irregular: [['octopus', 'octopi']], uncountable: ['Fish'] });
  assert.is(inf.plural('Octopus'), 'octopi');
  assert.is(inf.plural('fish'), 'fish');
  assert.is(inf.singular('FISH'), 'FISH');
});

test('uncountable words are their own singular and plural', () => {
  const inf = createInflector({ uncountable: ['equipment'] });
  assert.is(inf.plural('equipment'), 'equipment');
  assert.is(inf.singular('equipment'), 'equipment');
  assert.is(inf.plural('gym_equipment'), 'gym_equipment');
});

test('rules are frozen copies', () => {
  const irregular: [string, string][] = [['octopus', 'octopi']];
  const inf = createInflector({ irregular, uncountable: ['fish'] });
  irregular.push(['cactus', 'cacti']);
  assert.equal(inf.rules, { irregular: [['octopus', 'octopi']], uncountable: ['fish'] });
  assert.ok(Object.isFrozen(inf.rules) && Object.isFrozen(inf.rules.irregular) && Object.isFrozen(inf.rules.irregular[0]));
  assert.ok(Object.isFrozen(inf));
});

test('two route sets with different inflections do not affect each other or the global pluralize', () => {
  const before = [pluralize.plural('octopus'), pluralize.singular('octopi'), pluralize.plural('moose'), pluralize.plural('person')];
  const a = draw((map) => map.resources('octopi'), { inflections: { irregular: [['octopus', 'octopi']] } });
  const b = draw((map) => map.resources('octopi'), { inflections: { uncountable: ['octopi'] } });
  const c = draw((map) => map.resources('people'), { inflections: { irregular: [['person', 'folk']] } });
  assert.ok('octopus' in a.named);
  assert.ok('octopi_index' in b.named && !('octopus' in b.named));
  assert.ok('people' in c.named && 'new_person' in c.named, 'people singularises by the default rules');
  assert.equal([pluralize.plural('octopus'), pluralize.singular('octopi'), pluralize.plural('moose'), pluralize.plural('person')], before);
});

test('asking again gives the same answer, for the whole word and for the last word alone', () => {
  const inf = createInflector({ irregular: [['person', 'peeps']], uncountable: ['sheep'] });
  for (let i = 0; i < 2; i++) {
    assert.is(inf.singular('line_items'), 'line_item');
    assert.is(inf.singular('items'), 'item');
    assert.is(inf.singular('order_items'), 'order_item');
    assert.is(inf.plural('sales_person'), 'sales_peeps');
    assert.is(inf.plural('person'), 'peeps');
    assert.is(inf.plural('black_sheep'), 'black_sheep');
    assert.is(inf.singular('Sheep'), 'Sheep');
  }
});

const UNDERSCORE: readonly [string, string][] = [
  ['Post', 'post'], ['ResponseItem', 'response_item'], ['HTMLParser', 'html_parser'], ['Admin::Post', 'admin/post'], ['Admin/Post', 'admin/post'],
  ['line-item', 'line_item'], ['ABC', 'abc'], ['Post2Comment', 'post2_comment'],
];
for (const [name, expected] of UNDERSCORE) {
  test(`underscore(${JSON.stringify(name)}) is ${JSON.stringify(expected)}`, () => assert.is(underscore(name), expected));
}

test.run();
