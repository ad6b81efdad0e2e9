// Route helpers as a TypeScript application calls them, once `signalbox routes --types routes.mjs > routes.d.ts`
// has declared them. Checked by the consumer's strict tsc (tsconfig.helpers.json): the lines without a
// directive must compile, and each @ts-expect-error line must fail to (else tsc reports the directive).
import { Controller, type Helpers, type RouteSet, type View } from 'signalbox';

/** True only when A and B are the same type (not merely assignable). */
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;

export function check(h: Helpers, host: string): string[] {
  const nested = h.post_comment_path(1, 2);
  const index = h.posts_path();
  const member = h.publish_post_path(3);
  const singleton = h.account_url({ host });
  const root = h.root_path();
  const exact: [Equals<typeof nested, string>, Equals<typeof index, string>, Equals<typeof member, string>, Equals<typeof singleton, string>, Equals<typeof root, string>] = [true, true, true, true, true];
  void exact;
  const record = { id: 7, title: 'Hello' };
  const withRecords: string[] = [h.post_comment_path(record, { to_param: () => '2-second' }), h.post_path(record, { anchor: 'comments' }), h.formatted_post_path(record, 'xml'), h.post_path(record, 'json')];

  // @ts-expect-error -- no route is named no_such_route
  h.no_such_route_path();
  // @ts-expect-error -- a helper gives a string
  const wrong: number = h.posts_path();
  void wrong;
  // @ts-expect-error -- post_comment_path's keys are post_id and id: both, positionally
  h.post_comment_path(1);
  // @ts-expect-error -- a plain object is not a segment value unless it has an id
  h.post_path({ title: 'no id' }, {});
  return [nested, index, member, singleton, root, ...withRecords];
}

/** `routes.helpers()`, a controller's `this.routes` and a template's view context are all typed by RouteHelpers. */
export function everywhere(routes: RouteSet): string {
  return routes.helpers({ host: 'example.com' }).post_url(1);
}

export class PostsController extends Controller {
  show(): void {
    this.redirect_to(this.routes.publish_post_path(this.params.id as string));
    // @ts-expect-error -- a misspelt helper is a compile error in a controller
    this.routes.post_pth(1);
  }
}

export const template = (v: View) => {
  // @ts-expect-error -- and in a template
  v.edit_post_pth(1);
  return `${v.link_to('Edit', v.edit_post_path(1))} ${v.account_path()}`;
};
