/**
 * Class-level declarations as data: what each static call records, how a
 * subclass inherits without changing its parent, and the mistakes refused
 * at declaration time.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ActionControllerError, ArgumentError, Controller } from '../../../core/index.ts';
import { actionScope, appliesTo, declarationsOf, splitFilterArgs } from '../../../core/controller/declarations.ts';

const test = suite('controller declarations are per-class data, inherited by copy');

const kinds = (k: object) => declarationsOf(k).filters.map((f) => `${f.kind}:${typeof f.target === 'string' ? f.target : 'fn'}`);

test('a class without declarations has empty ones', () => {
  class Bare extends Controller {}
  const d = declarationsOf(Bare);
  assert.equal(d.filters, []);
  assert.equal(d.rescues, []);
  assert.is(d.forgery, null);
  assert.is(d.layout, null);
  assert.is(d.hidden.size, 0);
  assert.is(declarationsOf(Bare), d, 'the same object on every call');
});

test('filters are recorded in declaration order, prepend goes first', () => {
  class A extends Controller {
    static {
      this.before_filter('one', 'two');
      this.after_filter('three');
      this.around_filter('four');
      this.prepend_before_filter('zero');
    }
    zero(): void {}
    one(): void {}
    two(): void {}
    three(): void {}
    four(): void {}
  }
  assert.equal(kinds(A), ['before:zero', 'before:one', 'before:two', 'after:three', 'around:four']);
});

test('a subclass starts from a copy of its parent declarations and never changes them', () => {
  class Parent extends Controller {
    static {
      this.before_filter('auth');
      this.hide_action('helper');
      this.layout('admin');
      this.rescue_from(TypeError, 'oops');
    }
    auth(): void {}
    helper(): void {}
    oops(): void {}
  }
  class Child extends Parent {
    static {
      this.before_filter('extra');
      this.skip_before_filter('auth');
      this.hide_action('secret');
      this.layout(false);
    }
    extra(): void {}
    secret(): void {}
  }
  assert.equal(kinds(Parent), ['before:auth']);
  assert.equal(kinds(Child), ['before:extra']);
  assert.ok(declarationsOf(Parent).hidden.has('helper'));
  assert.not.ok(declarationsOf(Parent).hidden.has('secret'));
  assert.ok(declarationsOf(Child).hidden.has('helper'), 'hidden names are inherited');
  assert.is(declarationsOf(Parent).layout, 'admin');
  assert.is(declarationsOf(Child).layout, false);
  assert.is(declarationsOf(Child).rescues.length, 1);
});

test('a grandchild inherits through a class that declared nothing', () => {
  class Base extends Controller {
    static {
      this.before_filter('base');
    }
    base(): void {}
  }
  class Middle extends Base {}
  class Leaf extends Middle {
    static {
      this.after_filter('leaf');
    }
    leaf(): void {}
  }
  assert.equal(kinds(Leaf), ['before:base', 'after:leaf']);
  assert.equal(kinds(Middle), ['before:base']);
});

test('skip_filter removes named filters of any kind; function filters cannot be skipped by name', () => {
  const fn = () => {};
  class A extends Controller {
    static {
      this.before_filter('a', fn);
      this.after_filter('a');
      this.around_filter('b');
      this.skip_filter('a', 'b');
    }
    a(): void {}
    b(): void {}
  }
  assert.equal(kinds(A), ['before:fn']);
});

test('skip_filter with only or except keeps the filter for the other actions', () => {
  class Parent extends Controller {
    static { this.before_filter('a', 'b'); }
    a(): void {}
    b(): void {}
  }
  class Child extends Parent {
    static { this.skip_before_filter('a', { only: ['index'] }); }
  }
  const [a, b] = declarationsOf(Child).filters;
  assert.is(appliesTo(a, 'index'), false);
  assert.is(appliesTo(a, 'show'), true);
  assert.is(appliesTo(b, 'index'), true);
  assert.is(appliesTo(declarationsOf(Parent).filters[0], 'index'), true, 'the parent keeps it everywhere');
});

test('filter method names, and rescue handler names, are hidden from the actions', () => {
  class A extends Controller {
    static {
      this.before_filter('find');
      this.prepend_before_filter('first');
      this.after_filter('audit');
      this.around_filter('wrap');
      this.rescue_from(Error, { with: 'handle' });
      this.rescue_from('TypeError', (e: unknown) => e);
    }
    find(): void {}
    first(): void {}
    audit(): void {}
    wrap(): void {}
    handle(): void {}
  }
  assert.equal([...declarationsOf(A).hidden].sort(), ['audit', 'find', 'first', 'handle', 'wrap']);
});

test('rescue_from takes several matchers for one handler, as a last argument or { with }', () => {
  class A extends Controller {
    static {
      this.rescue_from(TypeError, 'RangeError', 'handler');
    }
    handler(): void {}
  }
  assert.equal(declarationsOf(A).rescues.map((r) => [typeof r.matcher === 'string' ? r.matcher : r.matcher.name, r.handler]), [
    ['TypeError', 'handler'],
    ['RangeError', 'handler'],
  ]);
});

test('rescue_from without an error class is refused', () => {
  assert.throws(() => {
    class A extends Controller {
      static {
        (this.rescue_from as (...a: unknown[]) => void)('handler');
      }
    }
    void A;
  }, (e: unknown) => e instanceof ActionControllerError && /needs an error class/.test(e.message));
});

test('a filter is a method name or a function; anything else is refused', () => {
  assert.throws(() => splitFilterArgs([42], 'before_filter'), (e: unknown) => e instanceof ArgumentError && e.message === 'A filter is a method name or a function, got 42');
  assert.throws(() => splitFilterArgs([['a']], 'before_filter'), (e: unknown) => e instanceof ArgumentError);
  assert.equal(splitFilterArgs(['a', { only: 'show' }], 'before_filter'), { targets: ['a'], scope: { only: ['show'] } });
  assert.throws(() => splitFilterArgs(['a', null], 'before_filter'), /got null/, 'a trailing null is no options object, so it is a target');
  assert.equal(splitFilterArgs(['a', 'b'], 'before_filter'), { targets: ['a', 'b'], scope: {} });
});

test('a declaration refuses an option it does not take, pointing at the one a slip of the keyboard away', () => {
  const declared = (declare: (c: typeof Controller) => void) => () => {
    class Declared extends Controller {
      index(): void {}
      ok(): boolean { return true; }
    }
    declare(Declared);
  };
  // Loosely typed on purpose: plain JavaScript can pass anything.
  const any = (c: typeof Controller) => c as unknown as Record<string, (...args: unknown[]) => void>;
  const cases: [(c: typeof Controller) => void, string][] = [
    [(c) => any(c).before_filter('ok', { onl: ['index'] }), 'Unknown before_filter option "onl" (did you mean only?)'],
    [(c) => any(c).prepend_before_filter('ok', { excpet: 'index' }), 'Unknown prepend_before_filter option "excpet" (did you mean except?)'],
    [(c) => any(c).after_filter('ok', { if: 'ok' }), 'Unknown after_filter option "if"'],
    [(c) => any(c).around_filter('ok', { Only: 'index' }), 'Unknown around_filter option "Only" (did you mean only?)'],
    [(c) => any(c).skip_before_filter('ok', { exept: 'index' }), 'Unknown skip_before_filter option "exept" (did you mean except?)'],
    [(c) => any(c).protect_from_forgery({ secrt: 's'.repeat(32) }), 'Unknown protect_from_forgery option "secrt" (did you mean secret?)'],
    [(c) => any(c).verify({ parms: ['id'] }), 'Unknown verify option "parms" (did you mean params?)'],
    [(c) => any(c).verify({ params: 'id', render: { txt: 'no' } }), `Unknown verify's render option "txt" (did you mean text?)`],
    [(c) => any(c).rescue_from(RangeError, { wiht: 'ok' }), 'Unknown rescue_from option "wiht" (did you mean with?)'],
    [(c) => any(c).rescue_from(RangeError, 42), "rescue_from's handler is a method name or a function, got number"],
    [(c) => any(c).rescue_from(null, 'ok'), 'rescue_from takes error classes (or their names), got null'],
    [(c) => any(c).layout(5), "layout takes a layout's name, false for none, or a function choosing one, got 5"],
    [(c) => any(c).layout(''), `layout takes a layout's name, false for none, or a function choosing one, got ""`],
  ];
  for (const [declare, message] of cases) {
    assert.throws(declared(declare), (e: unknown) => e instanceof ArgumentError && e.message === message, message);
  }
  // What each declaration takes still passes.
  declared((c) => {
    any(c).before_filter('ok', { only: ['index'] });
    any(c).skip_filter('ok', { except: 'index' });
    any(c).protect_from_forgery({ only: 'index', param: 'token', secret: 's'.repeat(32) });
    any(c).verify({ params: 'id', method: 'post', xhr: false, render: { text: 'no' }, add_flash: {}, add_headers: {}, only: 'index' });
    any(c).rescue_from(RangeError, 'RecordNotFound', { with: 'ok' });
    any(c).layout(false);
    any(c).layout('admin');
  })();
});

test('only and except take a name or a list; both at once is refused', () => {
  assert.equal(actionScope({ only: 'show' }), { only: ['show'] });
  assert.equal(actionScope({ except: ['index', 'new'] }), { except: ['index', 'new'] });
  assert.equal(actionScope(undefined), {});
  assert.equal(actionScope({ only: null }), {});
  assert.throws(() => actionScope({ only: 'a', except: 'b' }), (e: unknown) => e instanceof ArgumentError && e.message === 'Give either :only or :except, not both');
  assert.throws(() => {
    class A extends Controller {
      static {
        this.before_filter('x', { only: 'a', except: 'b' });
      }
      x(): void {}
    }
    void A;
  }, (e: unknown) => e instanceof ArgumentError);
});

test('appliesTo reads only, then except, else applies everywhere', () => {
  assert.ok(appliesTo({ only: ['show'] }, 'show'));
  assert.not.ok(appliesTo({ only: ['show'] }, 'index'));
  assert.not.ok(appliesTo({ except: ['show'] }, 'show'));
  assert.ok(appliesTo({ except: ['show'] }, 'index'));
  assert.ok(appliesTo({}, 'anything'));
});

test('protect_from_forgery records its options and scope; verify becomes a before filter', () => {
  class A extends Controller {
    static {
      this.protect_from_forgery({ except: ['api'], secret: 's' });
      this.verify({ params: 'id', only: ['show'] });
    }
  }
  const d = declarationsOf(A);
  assert.equal(d.forgery, { except: ['api'], secret: 's' });
  assert.is(d.filters.length, 1);
  assert.is(d.filters[0].kind, 'before');
  assert.equal(d.filters[0].only, ['show']);
});

test.run();
