/**
 * The blog's models and its in-memory store.
 *
 * The store keeps rows (plain data); `find` and `all` hand out fresh model
 * instances, as a database would. So a controller can assign a user's input
 * to a record and try to `save` it: when validation fails the stored row is
 * untouched and the record keeps the input and its `errors` for the form.
 *
 * Class names matter: the polymorphic helpers name routes after them
 * (`url_for(post)` is `post_url(post)`, `url_for([post, comment])` is
 * `post_comment_url(post, comment)`), and `render({ xml })` names elements
 * after them.
 *
 * @example
 *   const store = new Store();          // seeded
 *   const post = store.posts.find(1);   // throws RecordNotFound for an unknown id
 *   store.posts.create({ title: '' });  // throws RecordInvalid(["Title can't be blank", ...])
 */
import { RecordInvalid, RecordNotFound } from '../../core/index.ts';

/** What a form or an API client may set; anything else in the params is ignored. */
export type Attributes = Readonly<Record<string, unknown>>;

/** Common to every model: an id (null until saved) and validation errors (not part of any representation). */
abstract class Model {
  id: number | null = null;
  declare errors: string[];

  constructor() {
    // Not enumerable: `render({ json })` and `render({ xml })` serialise the other own fields only.
    Object.defineProperty(this, 'errors', { value: [], writable: true, enumerable: false });
  }

  /** What helpers put in URLs: `/posts/3`. */
  to_param(): string | null {
    return this.id === null ? null : String(this.id);
  }

  /** True until the store saves it; the polymorphic helpers then name the collection (`posts_path`). */
  new_record(): boolean {
    return this.id === null;
  }

  /** Sets the permitted attributes found in `attrs`. */
  abstract assign(attrs: Attributes): this;
  /** Error messages, Rails style ("Title can't be blank"); empty when valid. */
  abstract validate(): string[];
}

export class Post extends Model {
  title = '';
  body = '';
  published = false;
  created_at: Date | null = null;

  assign(attrs: Attributes): this {
    if ('title' in attrs) this.title = text(attrs.title);
    if ('body' in attrs) this.body = text(attrs.body);
    if ('published' in attrs) this.published = truthy(attrs.published);
    return this;
  }

  validate(): string[] {
    const errors: string[] = [];
    if (this.title.trim() === '') errors.push("Title can't be blank");
    else if (this.title.length > 120) errors.push('Title is too long (maximum is 120 characters)');
    if (this.body.trim() === '') errors.push("Body can't be blank");
    return errors;
  }
}

export class Comment extends Model {
  post_id: number | null = null;
  author = '';
  body = '';

  assign(attrs: Attributes): this {
    if ('author' in attrs) this.author = text(attrs.author);
    if ('body' in attrs) this.body = text(attrs.body);
    return this;
  }

  validate(): string[] {
    const errors: string[] = [];
    if (this.author.trim() === '') errors.push("Author can't be blank");
    if (this.body.trim() === '') errors.push("Body can't be blank");
    return errors;
  }
}

/** The singleton resource: the site owner's account. */
export class Account extends Model {
  name = '';
  email = '';

  assign(attrs: Attributes): this {
    if ('name' in attrs) this.name = text(attrs.name);
    if ('email' in attrs) this.email = text(attrs.email);
    return this;
  }

  validate(): string[] {
    const errors: string[] = [];
    if (this.name.trim() === '') errors.push("Name can't be blank");
    if (!/^[^@\s]+@[^@\s]+$/.test(this.email)) errors.push('Email is invalid');
    return errors;
  }
}

function text(value: unknown): string {
  return value === null || value === undefined ? '' : String(value);
}

// Forms send "1"/"0" (check box plus hidden field), JSON sends booleans, XML typed or plain text.
function truthy(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true';
}

type ModelClass<T extends Model> = { new (): T; readonly name: string };

/** One table of records of one model. */
export class Table<T extends Model> {
  readonly #model: ModelClass<T>;
  readonly #rows = new Map<number, Record<string, unknown>>();
  #nextId = 1;
  readonly #beforeCreate: (record: T) => void;

  constructor(model: ModelClass<T>, beforeCreate: (record: T) => void = () => {}) {
    this.#model = model;
    this.#beforeCreate = beforeCreate;
  }

  /** The record with this id (a string from the URL is fine); throws `RecordNotFound`. */
  find(id: unknown): T {
    const key = Number(id);
    const row = Number.isInteger(key) ? this.#rows.get(key) : undefined;
    if (row === undefined) throw new RecordNotFound(`Couldn't find ${this.#model.name} with ID=${String(id)}`);
    return this.#load(row);
  }

  /** Every record, optionally filtered, in id order. */
  all(filter: (record: T) => boolean = () => true): T[] {
    return [...this.#rows.values()].map((row) => this.#load(row)).filter(filter);
  }

  count(filter?: (record: T) => boolean): number {
    return filter ? this.all(filter).length : this.#rows.size;
  }

  /** A new, unsaved record. */
  build(attrs: Attributes = {}): T {
    return new this.#model().assign(attrs);
  }

  /** Validates and stores the record (inserting it when new); throws `RecordInvalid` and keeps the messages on `record.errors`. */
  save(record: T): T {
    record.errors = record.validate();
    if (record.errors.length > 0) throw new RecordInvalid(record.errors);
    if (record.id === null) {
      this.#beforeCreate(record);
      record.id = this.#nextId++;
    }
    this.#rows.set(record.id, { ...record } as Record<string, unknown>);
    return record;
  }

  create(attrs: Attributes): T {
    return this.save(this.build(attrs));
  }

  update(id: unknown, attrs: Attributes): T {
    return this.save(this.find(id).assign(attrs));
  }

  /** Removes the record; throws `RecordNotFound` when it is not there. */
  destroy(id: unknown): T {
    const record = this.find(id);
    this.#rows.delete(record.id!);
    return record;
  }

  #load(row: Record<string, unknown>): T {
    return Object.assign(new this.#model(), row);
  }
}

/** Everything the blog keeps, in memory. One store per app: tests get a fresh one each. */
export class Store {
  readonly posts = new Table(Post, (post) => {
    post.created_at = new Date(this.#clock());
  });
  readonly comments = new Table(Comment);
  readonly accounts = new Table(Account);
  readonly #clock: () => number;

  constructor(options: { seed?: boolean; clock?: () => number } = {}) {
    this.#clock = options.clock ?? Date.now;
    if (options.seed !== false) seed(this);
  }

  /** The post's comments, oldest first. */
  commentsOf(post: Post): Comment[] {
    return this.comments.all((c) => c.post_id === post.id);
  }

  /** One of the post's comments: a comment of another post is as missing as an unknown one. */
  findComment(post: Post, id: unknown): Comment {
    const comment = this.comments.find(id);
    if (comment.post_id !== post.id) throw new RecordNotFound(`Couldn't find Comment with ID=${String(id)} for Post ${post.id}`);
    return comment;
  }

  buildComment(post: Post, attrs: Attributes = {}): Comment {
    const comment = this.comments.build(attrs);
    comment.post_id = post.id;
    return comment;
  }

  /** Removes a post and its comments. */
  destroyPost(id: unknown): Post {
    const post = this.posts.destroy(id);
    for (const comment of this.commentsOf(post)) this.comments.destroy(comment.id);
    return post;
  }

  /** Posts whose title or body contains `query` (case-insensitively), newest first. */
  search(query: string): Post[] {
    const q = query.trim().toLowerCase();
    if (q === '') return [];
    return this.newestFirst(this.posts.all((p) => p.title.toLowerCase().includes(q) || p.body.toLowerCase().includes(q)));
  }

  newestFirst(posts: Post[]): Post[] {
    return [...posts].sort((a, b) => (b.id ?? 0) - (a.id ?? 0));
  }

  /** The one account, or null when there is none yet. */
  get account(): Account | null {
    return this.accounts.all()[0] ?? null;
  }

  /** The account; throws `RecordNotFound` when there is none. */
  findAccount(): Account {
    const account = this.account;
    if (account === null) throw new RecordNotFound("Couldn't find Account");
    return account;
  }

  /** Saves the account; a second one is refused as invalid ("Account already exists"). */
  saveAccount(account: Account): Account {
    if (account.new_record() && this.account !== null) {
      account.errors = ['Account already exists', ...account.validate()];
      throw new RecordInvalid(account.errors);
    }
    return this.accounts.save(account);
  }
}

function seed(store: Store): void {
  const welcome = store.posts.create({
    title: 'Welcome to Signalbox',
    body: 'This blog is the example app: posts with comments, an account, an admin area, all kept in memory. Every page is also available as JSON and XML: try /posts.json or /posts/1.xml.',
    published: true,
  });
  const routing = store.posts.create({
    title: 'Routing in five minutes',
    body: "map.resources('posts', { has_many: 'comments' }) gives you seven actions, named helpers like post_comment_path, and a .:format twin for every route.",
    published: true,
  });
  store.posts.create({
    title: 'A draft about request machines',
    body: 'Every request walks one explicit state machine: parse, negotiate, check forgery, recognize, dispatch, render, respond.',
    published: false,
  });
  store.comments.save(store.buildComment(welcome, { author: 'Ada', body: 'Clicked through it all. The forms even work without JavaScript.' }));
  store.comments.save(store.buildComment(welcome, { author: 'Grace', body: 'Try DELETE via the little buttons: they are forms with _method.' }));
  store.comments.save(store.buildComment(routing, { author: 'Linus', body: 'rake routes, but in TypeScript.' }));
  store.accounts.create({ name: 'Blog Owner', email: 'owner@example.com' });
}
