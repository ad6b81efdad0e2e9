/**
 * JSON and XML bodies are refused at their count and depth limits while
 * they are read, before a tree is built: the pre-pass agrees with the
 * limits on every body (a property over random documents), and refusing a
 * 1 MB body far over a limit costs about what parsing a body at the limit
 * costs.
 */
import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ParamsParseError } from '../../../core/index.ts';
import { parseJsonParams, parseXmlParams, resolveParamLimits } from '../../../core/request/params.ts';
import { prescanJson, prescanXml } from '../../../core/request/prescan.ts';
import { medianMs } from '../../reliability/support/linear.ts';

const test = suite('JSON and XML limits are enforced while reading');
const SMALL = resolveParamLimits({ depth: 3, keys: 12, arrayLength: 4 });

/** Depth (as parameters nest), members plus elements, and the longest array of a parsed JSON value. */
function measure(value: unknown, depth: number, into: { depth: number; keys: number; array: number }): void {
  if (value === null || typeof value !== 'object') return;
  into.depth = Math.max(into.depth, depth);
  if (Array.isArray(value)) {
    into.array = Math.max(into.array, value.length);
    into.keys += value.length;
    for (const element of value) measure(element, depth + 1, into);
  } else {
    const keys = Object.keys(value);
    into.keys += keys.length;
    for (const key of keys) measure((value as Record<string, unknown>)[key], depth + 1, into);
  }
}

function overLimits(value: unknown): boolean {
  const seen = { depth: 0, keys: 0, array: 0 };
  measure(value, Array.isArray(value) ? 1 : 0, seen);
  return seen.depth > SMALL.depth || seen.keys > SMALL.keys || seen.array > SMALL.arrayLength;
}

function refuses(scan: () => void): boolean {
  try {
    scan();
    return false;
  } catch (error) {
    if (error instanceof ParamsParseError) return true;
    throw error;
  }
}

test('the JSON pre-pass refuses exactly the documents over a limit', () => {
  fc.assert(fc.property(fc.jsonValue({ maxDepth: 5 }), fc.boolean(), (value, pretty) => {
    const text = JSON.stringify(value, null, pretty ? 2 : undefined);
    assert.is(refuses(() => prescanJson(text, SMALL)), overLimits(value), text);
  }), { numRuns: 2_000 });
});

test('the JSON pre-pass is not fooled by structure inside strings', () => {
  const text = JSON.stringify({ a: '[[[[[[{"x":1,"y":2}]]]]]]', b: '\\"[[[[' });
  prescanJson(text, SMALL);
  assert.equal(parseJsonParams(text, { depth: 3, keys: 12, arrayLength: 4 }), { a: '[[[[[[{"x":1,"y":2}]]]]]]', b: '\\"[[[[' });
});

test('the JSON pre-pass throws the parser\'s own errors', () => {
  assert.throws(() => parseJsonParams('[[[[[1]]]]]', { depth: 3 }), /JSON body nested too deeply: the limit is 3 levels/);
  assert.throws(() => parseJsonParams(`{${Array.from({ length: 13 }, (_, i) => `"k${i}":1`).join(',')}}`, { keys: 12 }), /Too many parameters in a JSON body: the limit is 12/);
  assert.throws(() => parseJsonParams('{"a":[1,2,3,4,5]}', { arrayLength: 4 }), /Too many elements in a JSON array: the limit is 4/);
});

/** A random XML document as text: attributes, repeated names, text, CDATA and comments holding markup. */
const xmlTree: fc.Arbitrary<string> = fc.letrec<{ element: string }>((tie) => ({
  element: fc.record({
    name: fc.constantFrom('a', 'b', 'c'),
    attributes: fc.uniqueArray(fc.constantFrom('x', 'y'), { maxLength: 2 }),
    children: fc.oneof({ depthSize: 'small' }, fc.constant([]), fc.array(tie('element'), { maxLength: 5 })),
    text: fc.constantFrom('', '1', ' ', 'a &amp; b', '<![CDATA[<i>no</i>]]>', '<!-- <i> -->'),
  }).map(({ name, attributes, children, text }) => {
    const attrs = attributes.map((a) => ` ${a}="v>/"`).join('');
    return children.length === 0 && text === '' ? `<${name}${attrs}/>` : `<${name}${attrs}>${text}${children.join('')}</${name}>`;
  }),
})).element;

test('the XML pre-pass refuses exactly the documents the reader refuses for a limit', () => {
  fc.assert(fc.property(xmlTree, (xml) => {
    const loose = resolveParamLimits({ depth: 1e6, keys: 1e6, arrayLength: 1e6 });
    let readerRefuses = false;
    try {
      // The reader alone: limits loose for the pre-pass, exact in the reader, by scanning loosely first.
      prescanXml(xml, loose);
      parseXmlParams(xml, { depth: 3, keys: 12, arrayLength: 4 });
    } catch (error) {
      if (!(error instanceof ParamsParseError)) throw error;
      readerRefuses = true;
    }
    assert.is(refuses(() => prescanXml(xml, SMALL)), readerRefuses, xml);
  }), { numRuns: 2_000 });
});

test('refusing a 1 MB XML or JSON body over a count limit costs about what a body at the limit costs', async () => {
  const xmlAt = `<r>${'<i>1</i>'.repeat(1_000)}</r>`;
  const xmlOver = `<r>${'<i>1</i>'.repeat(130_000)}</r>`;
  assert.throws(() => parseXmlParams(xmlOver), /Too many (repeated )?XML elements/);
  const xmlRatio = (await medianMs(() => refuses(() => parseXmlParams(xmlOver)), 7)) / (await medianMs(() => parseXmlParams(xmlAt), 7));
  const jsonAt = `[${'1,'.repeat(999)}1]`;
  const jsonOver = `[${'1,'.repeat(500_000)}1]`;
  const jsonRatio = (await medianMs(() => refuses(() => parseJsonParams(jsonOver)), 7)) / (await medianMs(() => parseJsonParams(jsonAt), 7));
  // A whole parse of the 1 MB body costs 100× and more; what is left is reading the body once (its size, DOCTYPE).
  assert.ok(xmlRatio < 5, `XML: refusing cost ${xmlRatio.toFixed(1)}× a body at the limit`);
  assert.ok(jsonRatio < 5, `JSON: refusing cost ${jsonRatio.toFixed(1)}× a body at the limit`);
});

test.run();
