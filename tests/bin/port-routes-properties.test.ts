/**
 * Properties of `signalbox port-routes` on arbitrary input: the lexer and parser throw nothing but their
 * typed `RubySyntaxError` (never a stack overflow or a TypeError), the whole port never throws, and the
 * cost of a port grows linearly with the size of the file, including for inputs built to make a naive
 * implementation backtrack, nest, or loop.
 *
 * Runs are bounded; set `SIGNALBOX_PROPERTY_RUNS` to look harder locally. Timings compare the best of
 * several samples with a wide margin, so a busy machine does not fail them.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { RubySyntaxError } from '../../bin/port-routes/errors.ts';
import { port } from '../../bin/port-routes/index.ts';
import { parse } from '../../bin/port-routes/parser.ts';

const RUNS = Number(process.env.SIGNALBOX_PROPERTY_RUNS ?? 0) || undefined;
const runs = (n: number) => ({ numRuns: RUNS ?? n });

// Pieces of routes-file Ruby, including the ones that open and close literals, blocks and documents.
const FRAGMENTS = [
  'map', '.', 'connect', 'resources', ' ', '  ', '\n', ';', ',', "'a'", '"b"', '"#{', '#{', '}', '{', '(', ')', '[', ']', '|x|', '||',
  'do', 'end', 'if', 'unless', 'while', 'def', 'class', 'begin', 'rescue', 'case', 'when', 'else', 'elsif', ':sym', ':"q', ':', '::', '=>',
  '=', '==', 'x', 'X', '@i', '$g', '1', '-', '+', '*', '**', '&', '/', '/re/i', '%w(', '%r{', '%q[', '?', '?a', '<<', '<<-EOS\n', 'EOS\n',
  '<<~A\n', 'A\n', '=begin\n', '=end\n', '__END__\n', '#', '# c\n', '\\', '\\\n', 'key:', '"k":', '->', '..', '!', 'not', 'and', '`',
  'ActionController::Routing::Routes.draw', ' do |map|\n', '%w(a b).each { |p| map.send p, p }', 'h.merge(', '\u00e9', '\0', '\t',
];

const rubyish = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 60 }).map((parts) => parts.join(''));
const anyText = fc.string({ unit: 'binary', maxLength: 200 });

const properties = suite('port-routes: arbitrary input');

properties('the parser throws only RubySyntaxError, on Ruby-like and on arbitrary text', () => {
  fc.assert(fc.property(fc.oneof(rubyish, anyText), (text) => {
    try {
      parse(text);
    } catch (error) {
      if (!(error instanceof RubySyntaxError)) throw error;
      assert.ok(Number.isInteger(error.line) && error.line >= 1, 'a syntax error has a line');
    }
  }), runs(1500));
});

properties('a port never throws: it prints something, or reports why not', () => {
  fc.assert(fc.property(fc.oneof(rubyish, anyText), fc.constantFrom('ts', 'json' as const), (text, format) => {
    const result = port([{ name: 'routes.rb', text }], format);
    if (result.read === 0) {
      assert.is(result.output, '');
      assert.match(result.reports[0], /^routes\.rb:\d+: syntax error: /);
    } else if (format === 'json') {
      assert.ok(Array.isArray(JSON.parse(result.output)));
    } else {
      assert.match(result.output, /^export default routes;$/m);
    }
  }), runs(600));
});

// Nesting far past any real routes file: refused with a syntax error, not a stack overflow.
const DEEP: [string, (n: number) => string][] = [
  ['parentheses', (n) => `${'('.repeat(n)}1${')'.repeat(n)}`],
  ['brackets', (n) => `${'['.repeat(n)}${']'.repeat(n)}`],
  ['hashes', (n) => `${'{:a=>'.repeat(n)}1${'}'.repeat(n)}`],
  ['interpolations', (n) => `${'"#{'.repeat(n)}1${'}"'.repeat(n)}`],
  ['negations', (n) => `${'!'.repeat(n)}x`],
  ['minus signs', (n) => `${'- '.repeat(n)}1`],
  ['not', (n) => `${'not '.repeat(n)}x`],
  ['ternaries', (n) => `${'a ? b : '.repeat(n)}c`],
  ['assignments', (n) => `${'a = '.repeat(n)}1`],
  ['do blocks', (n) => `${'map.with_options({}) do |m|\n'.repeat(n)}${'end\n'.repeat(n)}`],
  ['brace blocks', (n) => `${'x { |m| '.repeat(n)}${'}'.repeat(n)}`],
  ['begin', (n) => `${'begin\n'.repeat(n)}${'end\n'.repeat(n)}`],
  ['if', (n) => `${'if x\n'.repeat(n)}${'end\n'.repeat(n)}`],
  ['lambdas', (n) => `${'->{ '.repeat(n)}${'}'.repeat(n)}`],
  ['powers', (n) => `${'2 ** '.repeat(n)}2`],
];

for (const [name, make] of DEEP) {
  properties(`${name} nested 20,000 deep are a syntax error, not a crash`, () => {
    const text = make(20_000);
    try {
      parse(text);
      assert.unreachable('parsed');
    } catch (error) {
      assert.instance(error, RubySyntaxError);
    }
    const result = port([{ name: 'routes.rb', text }], 'ts');
    assert.is(result.read, 0);
  });
}

properties('an elsif chain of any length is read', () => {
  const text = `if a\n${'elsif b\n'.repeat(20_000)}end\nmap.connect ':controller'\n`;
  const result = port([{ name: 'routes.rb', text }], 'json');
  assert.equal(JSON.parse(result.output), [['connect', ':controller']]);
});

properties.run();

// ---------------------------------------------------------------------------

const linear = suite('port-routes: cost linear in the input');

/**
 * Milliseconds one port of the text takes: the best of several samples (what a busy machine can only
 * make slower), each long enough (the port repeated) not to be lost in the timer's noise.
 */
function costOf(text: string, samples = 5): number {
  const run = () => port([{ name: 'routes.rb', text }], 'ts');
  const start = performance.now();
  run();
  const once = performance.now() - start;
  const repeats = Math.max(1, Math.ceil(5 / Math.max(once, 0.01)));
  let best = Infinity;
  for (let s = 0; s < samples; s++) {
    const t = performance.now();
    for (let r = 0; r < repeats; r++) run();
    best = Math.min(best, (performance.now() - t) / repeats);
  }
  return best;
}

// Inputs of k units; each family is built to find a super-linear path (backtracking, re-scanning, copying).
// Nested loops do quadratic work if let: that family is sized so that both runs reach the budget.
const FAMILIES: [string, (k: number) => string, number?][] = [
  ['many statements', (k) => "map.connect ':controller/:action/:id', :controller => 'x'\n".repeat(k), 100],
  ['one call with many arguments', (k) => `map.connect 'a'${", :k => 'v'".repeat(k)}\n`],
  ['many heredocs, comments and documents', (k) => 'map.connect <<-P, :controller => "a" # note\n  path\n  P\n=begin\ndoc\n=end\n'.repeat(k)],
  ['unterminated heredoc openers', (k) => `${'a <<"x\n'.repeat(k)}`],
  ['a long word list looped over', (k) => `%w(${'word '.repeat(k)}).each { |w| map.send w, w, :controller => w }\n`],
  ['a long interpolated string', (k) => `x = 1\nmap.connect "${'#{x}/'.repeat(k)}", :controller => 'c'\n`],
  ['a long regexp with options, classes and comments', (k) => `map.connect ':a', :controller => 'c', :a => /${'(?i:a)[[:alpha:]]\\d{1,2} # c\n'.repeat(k)}/x\n`],
  ['a long condition repeated in a loop', (k) => `%w(${'a '.repeat(k)}).each { |x| map.connect x if ${'x == 1 && '.repeat(k)}x }\n`],
  ['nested loops', (k) => `l = %w(${'a '.repeat(k)})\nl.each { |x| l.each { |y| map.connect "#{x}#{y}", :controller => x } }\n`, 700],
];

for (const [name, make, base = 250] of FAMILIES) {
  linear(name, () => {
    // Grow the small input until one port takes a few milliseconds here, so the timer's noise is small.
    let k = base;
    costOf(make(k), 1); // warm up
    while (costOf(make(k), 1) < 3 && k < base * 64) k *= 2;
    const small = make(k);
    const large = make(k * 16);
    const ratio = costOf(large, 3) / costOf(small, 3);
    const size = large.length / small.length;
    // Linear is about `size` (16), up to a few times more where one port's objects outlive the young
    // generation and cost a full collection (measured: 25x to 90x here, once 147x beside other work on
    // two cores); quadratic would be 256x and more.
    assert.ok(ratio < size * 12, `${name}: ${large.length} chars took ${ratio.toFixed(1)}x the time of ${small.length} chars`);
  });
}

linear('a statement that needs more work than the input can justify is left out whole; later routes still port', () => {
  const text = `ActionController::Routing::Routes.draw do |map|\n  l = %w(${'a '.repeat(3000)})\n  l.each { |x| l.each { |y| map.connect "#{x}#{y}", :controller => x } }\n  map.connect ':controller'\nend\n`;
  const result = port([{ name: 'routes.rb', text }], 'json');
  assert.equal(JSON.parse(result.output), [['connect', ':controller']], 'none of the loop\'s routes are kept');
  assert.is(result.reports[0], 'routes.rb:3: not ported: l.each { |x| l.each { |y| map.connect "#{x}#{y}", :controller => x } }');
  assert.match(result.reports[1], /bounded by the size of the input/);
});

linear.run();
