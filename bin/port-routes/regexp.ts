/**
 * Ruby regexps in JavaScript's dialect, meaning kept (internal to `signalbox port-routes`).
 *
 * The two dialects share most syntax and differ where it matters for a port: Ruby's `^`/`$` are always
 * line anchors and `\A`/`\z`/`\Z` the string anchors; Ruby's `m` is JavaScript's dotall and Ruby's `.`
 * never matches only `\n`; `(?i)`, `(?i:...)`, `(?-x)` switch options inside the pattern; `x` ignores
 * whitespace and `#` comments; `\h`, `\R`, `\s`, POSIX bracket classes and `{,n}` have other spellings;
 * a plain group stops capturing once a pattern names a group. Each construct is rewritten to its exact
 * JavaScript equivalent, and one without an equivalent (atomic groups, possessive quantifiers,
 * `\G`, `\K`, `\g<...>`, `\p{...}` property names, class intersections) throws `NotPorted` rather than
 * being approximated.
 *
 * The result is `{ source, flags }`: `flags` holds `i` when the whole pattern ignores case (otherwise
 * the case-insensitive parts are spelled out as `[aA]`), and `x` when Ruby's pattern had it, in which
 * case `source` keeps the pattern's whitespace and comments for Signalbox's own `x` support to strip.
 * POSIX classes are ASCII, as in Ruby 1.8, which Rails 2.x ran on.
 */
import { NotPorted } from './errors.ts';

export interface JsRegexp {
  readonly source: string;
  /** `x` and/or `i`, in that order. */
  readonly flags: string;
}

interface Options {
  i: boolean;
  m: boolean;
  x: boolean;
}

interface Decisions {
  /** The JavaScript pattern carries the `i` flag; otherwise case-insensitive parts are folded by hand. */
  readonly globalI: boolean;
  /** The pattern names a group, so Ruby's plain groups do not capture. */
  readonly plainGroupsCapture: boolean;
}

interface Stats {
  iOn: boolean;
  iOff: boolean;
  named: boolean;
}

/** Translates a Ruby regexp (its source and option letters) to JavaScript; throws `NotPorted`. */
export function translateRegexp(source: string, rubyFlags: string): JsRegexp {
  const options: Options = { i: rubyFlags.includes('i'), m: rubyFlags.includes('m'), x: rubyFlags.includes('x') };
  const first = new Translation(source, options, { globalI: options.i, plainGroupsCapture: true }).run();
  const globalI = !first.stats.iOff && (first.stats.iOn || options.i);
  const decisions: Decisions = { globalI, plainGroupsCapture: !first.stats.named };
  const result = decisions.globalI === options.i && decisions.plainGroupsCapture ? first : new Translation(source, options, decisions).run();
  try {
    new RegExp(result.plain, globalI ? 'i' : '');
  } catch (error) {
    throw new NotPorted(`the regexp /${source}/${rubyFlags} has no JavaScript equivalent (${(error as Error).message})`);
  }
  // Ruby's `m` is already spelled out (`.` as `[\s\S]`); it is kept as JavaScript's `s`, the same option, so that a
  // segment's requirement given it is refused as Rails refused it ("Regexp multiline option not allowed").
  return { source: options.x ? result.extended : result.plain, flags: `${options.x ? 'x' : ''}${globalI ? 'i' : ''}${options.m ? 's' : ''}` };
}

const POSIX: Readonly<Record<string, readonly (readonly [number, number])[]>> = {
  alnum: [[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a]],
  alpha: [[0x41, 0x5a], [0x61, 0x7a]],
  blank: [[0x20, 0x20], [0x09, 0x09]],
  cntrl: [[0x00, 0x1f], [0x7f, 0x7f]],
  digit: [[0x30, 0x39]],
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [[0x21, 0x2f], [0x3a, 0x40], [0x5b, 0x60], [0x7b, 0x7e]],
  space: [[0x09, 0x0d], [0x20, 0x20]],
  upper: [[0x41, 0x5a]],
  xdigit: [[0x30, 0x39], [0x41, 0x46], [0x61, 0x66]],
  word: [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]],
  ascii: [[0x00, 0x7f]],
};

const SPACE: readonly (readonly [number, number])[] = [[0x09, 0x0d], [0x20, 0x20]];
const HEX: readonly (readonly [number, number])[] = [[0x30, 0x39], [0x41, 0x46], [0x61, 0x66]];

/** A class member: ranges of code units, or a JavaScript class escape (`\d`, `\w`, `\D`, `\W`) kept as written. */
type ClassItem =
  | { readonly kind: 'ranges'; readonly ranges: readonly (readonly [number, number])[]; readonly negated: boolean }
  | { readonly kind: 'escape'; readonly text: string };

const SYNTAX = '\\^$.|?*+()[]{}/';

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, '0');
}

/** A character as a JavaScript pattern atom (outside a class). `extended`: whitespace and `#` must not read as layout. */
function literal(code: number, extended: boolean): string {
  const ch = String.fromCharCode(code);
  if (code === 0x5c) return '\\x5c';
  if (SYNTAX.includes(ch)) return `\\${ch}`;
  return plainChar(code, extended);
}

function plainChar(code: number, extended: boolean): string {
  switch (code) {
    case 0x0a: return '\\n';
    case 0x0d: return '\\r';
    case 0x09: return '\\t';
    case 0x0b: return '\\v';
    case 0x0c: return '\\f';
    case 0x2028: case 0x2029: return `\\u${hex(code, 4)}`;
    default: break;
  }
  // A lone surrogate would not survive being written as UTF-8.
  if (code >= 0xd800 && code <= 0xdfff) return `\\u${hex(code, 4)}`;
  if (code < 0x20 || code === 0x7f) return `\\x${hex(code, 2)}`;
  const ch = String.fromCharCode(code);
  if (extended && (ch === '#' || /\s/.test(ch))) return code === 0x20 ? '\\ ' : code === 0x23 ? '\\#' : `\\u${hex(code, 4)}`;
  return ch;
}

/** A character inside a JavaScript class. */
function classChar(code: number): string {
  const ch = String.fromCharCode(code);
  if (code === 0x5c) return '\\x5c';
  if (ch === ']' || ch === '[' || ch === '^' || ch === '-' || ch === '/') return `\\${ch}`;
  if (code === 0x20) return ' ';
  return plainChar(code, false);
}

function otherCase(code: number): number | null {
  const ch = String.fromCharCode(code);
  const lower = ch.toLowerCase();
  const upper = ch.toUpperCase();
  const other = ch === lower ? upper : lower;
  return other.length === 1 && other !== ch ? other.charCodeAt(0) : null;
}

function overlapsLetters(ranges: readonly (readonly [number, number])[]): boolean {
  return ranges.some(([lo, hi]) => (lo <= 0x5a && hi >= 0x41) || (lo <= 0x7a && hi >= 0x61) || (hi >= 0xc0 && lo <= 0xffff));
}

class Translation {
  readonly #src: string;
  readonly #decisions: Decisions;
  #pos = 0;
  #options: Options;
  readonly #stack: { saved: Options; plain: number; extended: number }[] = [];
  #plain = '';
  #extended = '';
  /** Where the last repeatable atom starts in each output, and whether a quantifier already follows it. */
  #atom: { plain: number; extended: number; quantified: boolean } | null = null;
  readonly stats: Stats = { iOn: false, iOff: false, named: false };

  constructor(source: string, options: Options, decisions: Decisions) {
    this.#src = source;
    this.#options = { ...options };
    this.#decisions = decisions;
  }

  run(): { plain: string; extended: string; stats: Stats } {
    const src = this.#src;
    while (this.#pos < src.length) {
      const c = src[this.#pos];
      if (this.#options.x && /[ \t\n\r\f\v]/.test(c)) {
        this.#layout(c);
        this.#pos++;
        continue;
      }
      if (this.#options.x && c === '#') {
        const eol = src.indexOf('\n', this.#pos);
        const end = eol === -1 ? src.length : eol;
        this.#layout(src.slice(this.#pos, end));
        this.#pos = end;
        continue;
      }
      switch (c) {
        case '\\': this.#escape(); break;
        case '[': this.#class(); break;
        case '(': this.#open(); break;
        case ')': this.#close(); break;
        case '|':
          this.#pos++;
          this.#emit('|');
          this.#atom = null;
          break;
        case '.':
          this.#pos++;
          this.#atomText(this.#options.m ? '[\\s\\S]' : '[^\\n]', false);
          break;
        case '^':
          this.#pos++;
          this.#anchor('(?<![^\\n])');
          break;
        case '$':
          this.#pos++;
          this.#anchor('(?![^\\n])');
          break;
        case '*': case '+': case '?': this.#quantifier(c); break;
        case '{': this.#interval(); break;
        default: this.#char(this.#codePointAt());
      }
    }
    if (this.#stack.length > 0) throw new NotPorted(`the regexp /${src}/ has an unclosed group`);
    return { plain: this.#plain, extended: this.#extended, stats: this.stats };
  }

  #emit(text: string, extendedText = text): void {
    this.#plain += text;
    this.#extended += extendedText;
  }

  /** Whitespace or a comment of an `x` region: only the extended output keeps it. */
  #layout(text: string): void {
    this.#extended += text;
  }

  #anchor(text: string): void {
    this.#emit(text);
    this.#atom = null;
  }

  #atomText(text: string, caseRelevant: boolean, extendedText = text): void {
    if (caseRelevant) this.#noteCase();
    this.#atom = { plain: this.#plain.length, extended: this.#extended.length, quantified: false };
    this.#emit(text, extendedText);
  }

  #noteCase(): void {
    if (this.#options.i) this.stats.iOn = true;
    else this.stats.iOff = true;
  }

  get #fold(): boolean {
    return this.#options.i && !this.#decisions.globalI;
  }

  #codePointAt(): number {
    const code = this.#src.codePointAt(this.#pos)!;
    this.#pos += code > 0xffff ? 2 : 1;
    return code;
  }

  #char(code: number): void {
    if (code > 0xffff) {
      // Without the `u` flag a character beyond U+FFFF is two units; group them so a quantifier repeats both.
      this.#atomText(`(?:${String.fromCodePoint(code)})`, false);
      return;
    }
    const other = otherCase(code);
    if (other !== null && this.#fold) {
      this.#atomText(`[${String.fromCharCode(code)}${String.fromCharCode(other)}]`, true);
      return;
    }
    this.#atomText(literal(code, false), other !== null, literal(code, true));
  }

  #unsupported(what: string): never {
    throw new NotPorted(`the regexp /${this.#src}/ uses ${what}, which JavaScript has no equivalent for`);
  }

  // ---- escapes outside a class ----

  #escape(): void {
    const src = this.#src;
    const n = src[this.#pos + 1];
    if (n === undefined) this.#unsupported('a trailing backslash');
    this.#pos += 2;
    switch (n) {
      case 'A': this.#anchor('^'); return;
      case 'z': this.#anchor('$'); return;
      case 'Z': this.#anchor('(?=\\n?$)'); return;
      case 'b': case 'B': this.#anchor(`\\${n}`); return;
      case 'd': case 'D': case 'w': case 'W': this.#atomText(`\\${n}`, false); return;
      case 's': this.#atomText('[\\t-\\r ]', false); return;
      case 'S': this.#atomText('[^\\t-\\r ]', false); return;
      case 'h': this.#atomText('[0-9a-fA-F]', false); return;
      case 'H': this.#atomText('[^0-9a-fA-F]', false); return;
      case 'R': this.#atomText('(?:\\r\\n|[\\n\\v\\f\\r\\x85\\u2028\\u2029])', false); return;
      case 'G': this.#unsupported('\\G (the end of the previous match)');
      case 'K': this.#unsupported('\\K (keep what was matched so far out of the match)');
      case 'X': this.#unsupported('\\X (an extended grapheme cluster)');
      case 'g': this.#unsupported('\\g<...> (a subexpression call)');
      case 'p': case 'P': this.#unsupported(`\\${n}{...} (a character property)`);
      case 'k': {
        const m = /<([A-Za-z_]\w*)>|'([A-Za-z_]\w*)'/y;
        m.lastIndex = this.#pos;
        const found = m.exec(src);
        if (found === null) this.#unsupported('\\k with a numbered or relative group');
        this.#pos += found[0].length;
        if (this.#fold) this.#unsupported('a backreference inside a case-insensitive part of a case-sensitive pattern');
        this.#atomText(`\\k<${found[1] ?? found[2]}>`, true);
        return;
      }
      default: break;
    }
    if (n >= '1' && n <= '9') {
      const m = /[0-9]*/y;
      m.lastIndex = this.#pos;
      const digits = n + m.exec(src)![0];
      this.#pos += digits.length - 1;
      if (!this.#decisions.plainGroupsCapture) this.#unsupported('a numbered backreference in a pattern with named groups');
      if (this.#fold) this.#unsupported('a backreference inside a case-insensitive part of a case-sensitive pattern');
      this.#atomText(`\\${digits}`, true);
      return;
    }
    const code = this.#escapedCode(n);
    if (code === null) {
      // An escaped character that stands for itself (`\.`, `\/`, `\ ` in x mode, `\y`).
      this.#pos -= n.length;
      this.#char(this.#codePointAt());
      return;
    }
    this.#char(code);
  }

  /** The code an escape stands for (`\n`, `\x41`, `\u{1F600}`, `\0`, `\cA`), or null when it is the escaped character itself. Consumes what follows `\n`. */
  #escapedCode(n: string): number | null {
    const src = this.#src;
    switch (n) {
      case 't': return 0x09;
      case 'n': return 0x0a;
      case 'r': return 0x0d;
      case 'f': return 0x0c;
      case 'v': return 0x0b;
      case 'a': return 0x07;
      case 'e': return 0x1b;
      case 'x': {
        const m = /[0-9a-fA-F]{1,2}/y;
        m.lastIndex = this.#pos;
        const found = m.exec(src);
        if (found === null) this.#unsupported('an invalid \\x escape');
        this.#pos += found[0].length;
        return parseInt(found[0], 16);
      }
      case 'u': {
        const m = /\{([0-9a-fA-F]{1,6})\}|([0-9a-fA-F]{4})/y;
        m.lastIndex = this.#pos;
        const found = m.exec(src);
        if (found === null) this.#unsupported('an invalid \\u escape');
        this.#pos += found[0].length;
        const code = parseInt(found[1] ?? found[2], 16);
        if (code > 0x10ffff) this.#unsupported('an invalid \\u escape');
        return code;
      }
      case '0': {
        const m = /[0-7]{0,2}/y;
        m.lastIndex = this.#pos;
        const digits = m.exec(src)![0];
        this.#pos += digits.length;
        return parseInt(`0${digits}`, 8);
      }
      case 'c': case 'C': {
        if (n === 'C') {
          if (src[this.#pos] !== '-') this.#unsupported('\\C without -');
          this.#pos++;
        }
        const letter = src[this.#pos];
        if (letter === undefined || !/[A-Za-z]/.test(letter)) this.#unsupported('a control escape other than \\cA-\\cZ');
        this.#pos++;
        return letter.charCodeAt(0) % 32;
      }
      case 'M': this.#unsupported('\\M- (a meta character)');
      default: return null;
    }
  }

  // ---- groups ----

  #open(): void {
    const src = this.#src;
    const at = this.#pos;
    const enter = (text: string, options: Options = this.#options) => {
      this.#stack.push({ saved: this.#options, plain: this.#plain.length, extended: this.#extended.length });
      this.#options = { ...options };
      this.#emit(text);
      this.#atom = null;
    };
    if (src[at + 1] !== '?') {
      this.#pos++;
      enter(this.#decisions.plainGroupsCapture ? '(' : '(?:');
      return;
    }
    const rest = src.slice(at + 2, at + 3);
    if (src.startsWith('(?#', at)) {
      const close = src.indexOf(')', at);
      if (close === -1) this.#unsupported('an unterminated (?# comment');
      this.#pos = close + 1;
      return;
    }
    for (const kind of [':', '=', '!', '<=', '<!']) {
      if (src.startsWith(kind, at + 2)) {
        this.#pos = at + 2 + kind.length;
        enter(`(?${kind}`);
        return;
      }
    }
    if (rest === '>') this.#unsupported('an atomic group (?>...)');
    if (rest === '~') this.#unsupported('an absence operator (?~...)');
    if (rest === '(') this.#unsupported('a conditional group (?(...)...)');
    const named = /\(\?(?:<([A-Za-z_]\w*)>|'([A-Za-z_]\w*)')/y;
    named.lastIndex = at;
    const name = named.exec(src);
    if (name !== null) {
      this.#pos = at + name[0].length;
      this.stats.named = true;
      enter(`(?<${name[1] ?? name[2]}>`);
      return;
    }
    const option = /\(\?([imxadu]*)(?:-([imx]*))?([:)])/y;
    option.lastIndex = at;
    const found = option.exec(src);
    if (found === null) this.#unsupported(`the group syntax ${src.slice(at, at + 4)}`);
    const [, on, off = '', end] = found;
    if (on.includes('u')) this.#unsupported('the (?u) option (Unicode classes)');
    const next: Options = { ...this.#options };
    for (const f of ['i', 'm', 'x'] as const) {
      if (on.includes(f)) next[f] = true;
      if (off.includes(f)) next[f] = false;
    }
    this.#pos = at + found[0].length;
    if (end === ':') {
      enter('(?:', next);
    } else {
      // `(?i)`: the options hold to the end of the enclosing group.
      this.#options = next;
    }
  }

  #close(): void {
    const top = this.#stack.pop();
    if (top === undefined) this.#unsupported('an unmatched )');
    this.#pos++;
    this.#options = top.saved;
    this.#emit(')');
    this.#atom = { plain: top.plain, extended: top.extended, quantified: false };
  }

  // ---- quantifiers ----

  #quantifier(c: string): void {
    this.#pos++;
    if (this.#atom === null) this.#unsupported(`a ${c} with nothing to repeat`);
    if (this.#atom.quantified) this.#wrapAtom();
    let text = c;
    const next = this.#src[this.#pos];
    if (next === '+') this.#unsupported('a possessive quantifier');
    if (next === '?') {
      text += '?';
      this.#pos++;
    }
    this.#emit(text);
    this.#atom.quantified = true;
  }

  /** `{n}`, `{n,}`, `{,m}`, `{n,m}`; anything else is a literal brace. */
  #interval(): void {
    const m = /\{(\d*)(,?)(\d*)\}/y;
    m.lastIndex = this.#pos;
    const found = m.exec(this.#src);
    if (found === null || (found[1] === '' && found[3] === '') || (found[2] === '' && found[3] !== '')) {
      this.#pos++;
      this.#char(0x7b);
      return;
    }
    if (this.#atom === null) this.#unsupported('an interval with nothing to repeat');
    this.#pos += found[0].length;
    if (this.#atom.quantified) this.#wrapAtom();
    const [, min, comma, max] = found;
    let text = `{${min === '' ? '0' : min}${comma}${max}}`;
    // In Ruby `a{1,2}?` is the lazy interval but `a{2}?` an optional `a{2}` (the `?` is read as the next quantifier).
    if (this.#src[this.#pos] === '?' && comma !== '') {
      text += '?';
      this.#pos++;
    }
    this.#emit(text);
    this.#atom.quantified = true;
  }

  /** `a**` or `a{2}+` in Ruby repeat a repetition; JavaScript needs the inner one grouped. */
  #wrapAtom(): void {
    const atom = this.#atom!;
    this.#plain = `${this.#plain.slice(0, atom.plain)}(?:${this.#plain.slice(atom.plain)})`;
    this.#extended = `${this.#extended.slice(0, atom.extended)}(?:${this.#extended.slice(atom.extended)})`;
    atom.quantified = false;
  }

  // ---- classes ----

  #class(): void {
    const { negated, items } = this.#readClass();
    const complements = items.filter((it) => it.kind === 'ranges' && it.negated);
    let body: string;
    let outerNegated = negated;
    let relevant = false;
    if (complements.length > 0) {
      // `\S`, `\H`, `[:^alpha:]` are complements; JavaScript can only say that for a whole class.
      if (items.length !== 1) this.#unsupported('a negated class (\\S, \\H or [:^name:]) together with other members of a class');
      const only = items[0] as Extract<ClassItem, { kind: 'ranges' }>;
      outerNegated = !negated;
      body = this.#ranges(only.ranges);
      relevant = overlapsLetters(only.ranges);
    } else {
      body = items.map((it) => (it.kind === 'escape' ? it.text : this.#ranges(it.ranges))).join('');
      relevant = items.some((it) => it.kind === 'ranges' && overlapsLetters(it.ranges));
    }
    if (body === '') this.#unsupported('an empty character class');
    this.#atomText(`[${outerNegated ? '^' : ''}${body}]`, relevant);
  }

  /** Ranges as class text, with the other case of each letter added where a case-insensitive part is spelled out. */
  #ranges(ranges: readonly (readonly [number, number])[]): string {
    let text = '';
    const extra: string[] = [];
    for (const [lo, hi] of ranges) {
      text += lo === hi ? classChar(lo) : `${classChar(lo)}-${classChar(hi)}`;
      if (!this.#fold) continue;
      for (const [from, to, shift] of [[0x41, 0x5a, 0x20], [0x61, 0x7a, -0x20]] as const) {
        const a = Math.max(lo, from);
        const b = Math.min(hi, to);
        if (a <= b) extra.push(a === b ? classChar(a + shift) : `${classChar(a + shift)}-${classChar(b + shift)}`);
      }
      if (lo === hi && lo > 0x7f) {
        const other = otherCase(lo);
        if (other !== null) extra.push(classChar(other));
      }
    }
    return text + extra.join('');
  }

  #readClass(): { negated: boolean; items: ClassItem[] } {
    const src = this.#src;
    this.#pos++;
    const negated = src[this.#pos] === '^';
    if (negated) this.#pos++;
    const items: ClassItem[] = [];
    let first = true;
    for (;;) {
      if (this.#pos >= src.length) this.#unsupported('an unterminated character class');
      const c = src[this.#pos];
      if (c === ']' && !first) {
        this.#pos++;
        return { negated, items };
      }
      first = false;
      if (c === '&' && src[this.#pos + 1] === '&') this.#unsupported('a class intersection (&&)');
      if (c === '[') {
        const posix = /\[:(\^?)([a-z]+):\]/y;
        posix.lastIndex = this.#pos;
        const found = posix.exec(src);
        if (found !== null) {
          const ranges = POSIX[found[2]];
          if (ranges === undefined) this.#unsupported(`the POSIX class [:${found[2]}:]`);
          this.#pos += found[0].length;
          items.push({ kind: 'ranges', ranges, negated: found[1] === '^' });
          continue;
        }
        const inner = this.#readClass();
        if (inner.negated) this.#unsupported('a negated class nested in a class');
        items.push(...inner.items);
        continue;
      }
      const lo = this.#classAtom();
      if (typeof lo !== 'number') {
        items.push(lo);
        continue;
      }
      if (src[this.#pos] === '-' && src[this.#pos + 1] !== ']' && this.#pos + 1 < src.length) {
        const save = this.#pos;
        this.#pos++;
        const hi = this.#classAtom();
        if (typeof hi === 'number') {
          if (hi < lo) this.#unsupported('an empty range in a character class');
          items.push({ kind: 'ranges', ranges: [[lo, hi]], negated: false });
          continue;
        }
        this.#pos = save;
      }
      items.push({ kind: 'ranges', ranges: [[lo, lo]], negated: false });
    }
  }

  /** One member of a class: a character's code, or a class escape. */
  #classAtom(): number | ClassItem {
    const src = this.#src;
    if (src[this.#pos] !== '\\') {
      const code = this.#codePointAt();
      if (code > 0xffff) this.#unsupported('a character beyond U+FFFF inside a class');
      return code;
    }
    const n = src[this.#pos + 1];
    if (n === undefined) this.#unsupported('a trailing backslash');
    this.#pos += 2;
    switch (n) {
      case 'd': case 'D': case 'w': case 'W': return { kind: 'escape', text: `\\${n}` };
      case 's': return { kind: 'ranges', ranges: SPACE, negated: false };
      case 'S': return { kind: 'ranges', ranges: SPACE, negated: true };
      case 'h': return { kind: 'ranges', ranges: HEX, negated: false };
      case 'H': return { kind: 'ranges', ranges: HEX, negated: true };
      case 'b': return 0x08;
      case 'p': case 'P': this.#unsupported(`\\${n}{...} (a character property)`);
      case 'R': case 'X': case 'G': case 'K': case 'A': case 'z': case 'Z': case 'g': case 'k':
        this.#unsupported(`\\${n} inside a character class`);
      default: break;
    }
    if (n >= '1' && n <= '7') {
      const m = /[0-7]{0,2}/y;
      m.lastIndex = this.#pos;
      const digits = n + m.exec(src)![0];
      this.#pos += digits.length - 1;
      return parseInt(digits, 8);
    }
    const code = this.#escapedCode(n);
    if (code !== null) return code;
    this.#pos -= n.length;
    return this.#codePointAt();
  }
}
