// The data module the README's application imports (`./store.ts`): not in the README, which leaves the
// data to the application. tests/package/packed.test.ts puts it beside the README's code.
import { RecordNotFound } from 'signalbox';

export class Post {
  readonly id: number;
  title: string;
  constructor(id: number, title: string) {
    this.id = id;
    this.title = title;
  }
  update(attributes: unknown): void {
    if (typeof attributes === 'object' && attributes !== null && 'title' in attributes && typeof attributes.title === 'string') this.title = attributes.title;
  }
  destroy(): void {
    posts.delete(this.id);
  }
}

const posts = new Map([[7, new Post(7, 'Hello')]]);

export const store = {
  find(id: unknown): Post {
    const post = posts.get(Number(id));
    if (post === undefined) throw new RecordNotFound(`No post ${String(id)}`);
    return post;
  },
};
