// The route helpers of routes.ts, written by `signalbox routes --types`. Regenerate it when the routes change; do not edit.
import type { RouteParam, UrlOptions } from 'signalbox';

declare module 'signalbox' {
  interface RouteHelpers {
    /** GET /posts/search → posts#search */
    search_posts_path(options?: UrlOptions): string;
    search_posts_path(format: string, options?: UrlOptions): string;
    /** GET /posts/search → posts#search */
    search_posts_url(options?: UrlOptions): string;
    search_posts_url(format: string, options?: UrlOptions): string;
    hash_for_search_posts_path(options?: UrlOptions): UrlOptions;
    hash_for_search_posts_url(options?: UrlOptions): UrlOptions;
    /** GET /posts/search.:format → posts#search */
    formatted_search_posts_path(format: string, options?: UrlOptions): string;
    formatted_search_posts_path(options?: UrlOptions): string;
    /** GET /posts/search.:format → posts#search */
    formatted_search_posts_url(format: string, options?: UrlOptions): string;
    formatted_search_posts_url(options?: UrlOptions): string;
    hash_for_formatted_search_posts_path(options?: UrlOptions): UrlOptions;
    hash_for_formatted_search_posts_url(options?: UrlOptions): UrlOptions;
    /** GET /posts → posts#index */
    posts_path(options?: UrlOptions): string;
    posts_path(format: string, options?: UrlOptions): string;
    /** GET /posts → posts#index */
    posts_url(options?: UrlOptions): string;
    posts_url(format: string, options?: UrlOptions): string;
    hash_for_posts_path(options?: UrlOptions): UrlOptions;
    hash_for_posts_url(options?: UrlOptions): UrlOptions;
    /** GET /posts.:format → posts#index */
    formatted_posts_path(format: string, options?: UrlOptions): string;
    formatted_posts_path(options?: UrlOptions): string;
    /** GET /posts.:format → posts#index */
    formatted_posts_url(format: string, options?: UrlOptions): string;
    formatted_posts_url(options?: UrlOptions): string;
    hash_for_formatted_posts_path(options?: UrlOptions): UrlOptions;
    hash_for_formatted_posts_url(options?: UrlOptions): UrlOptions;
    /** GET /posts/new → posts#new */
    new_post_path(options?: UrlOptions): string;
    new_post_path(format: string, options?: UrlOptions): string;
    /** GET /posts/new → posts#new */
    new_post_url(options?: UrlOptions): string;
    new_post_url(format: string, options?: UrlOptions): string;
    hash_for_new_post_path(options?: UrlOptions): UrlOptions;
    hash_for_new_post_url(options?: UrlOptions): UrlOptions;
    /** GET /posts/new.:format → posts#new */
    formatted_new_post_path(format: string, options?: UrlOptions): string;
    formatted_new_post_path(options?: UrlOptions): string;
    /** GET /posts/new.:format → posts#new */
    formatted_new_post_url(format: string, options?: UrlOptions): string;
    formatted_new_post_url(options?: UrlOptions): string;
    hash_for_formatted_new_post_path(options?: UrlOptions): UrlOptions;
    hash_for_formatted_new_post_url(options?: UrlOptions): UrlOptions;
    /** PUT /posts/:id/publish → posts#publish */
    publish_post_path(id: RouteParam, options?: UrlOptions): string;
    publish_post_path(id: RouteParam, format: string, options?: UrlOptions): string;
    publish_post_path(options?: UrlOptions): string;
    /** PUT /posts/:id/publish → posts#publish */
    publish_post_url(id: RouteParam, options?: UrlOptions): string;
    publish_post_url(id: RouteParam, format: string, options?: UrlOptions): string;
    publish_post_url(options?: UrlOptions): string;
    hash_for_publish_post_path(options?: UrlOptions): UrlOptions;
    hash_for_publish_post_url(options?: UrlOptions): UrlOptions;
    /** PUT /posts/:id/publish.:format → posts#publish */
    formatted_publish_post_path(id: RouteParam, format: string, options?: UrlOptions): string;
    formatted_publish_post_path(options?: UrlOptions): string;
    /** PUT /posts/:id/publish.:format → posts#publish */
    formatted_publish_post_url(id: RouteParam, format: string, options?: UrlOptions): string;
    formatted_publish_post_url(options?: UrlOptions): string;
    hash_for_formatted_publish_post_path(options?: UrlOptions): UrlOptions;
    hash_for_formatted_publish_post_url(options?: UrlOptions): UrlOptions;
    /** GET /posts/:id/edit → posts#edit */
    edit_post_path(id: RouteParam, options?: UrlOptions): string;
    edit_post_path(id: RouteParam, format: string, options?: UrlOptions): string;
    edit_post_path(options?: UrlOptions): string;
    /** GET /posts/:id/edit → posts#edit */
    edit_post_url(id: RouteParam, options?: UrlOptions): string;
    edit_post_url(id: RouteParam, format: string, options?: UrlOptions): string;
    edit_post_url(options?: UrlOptions): string;
    hash_for_edit_post_path(options?: UrlOptions): UrlOptions;
    hash_for_edit_post_url(options?: UrlOptions): UrlOptions;
    /** GET /posts/:id/edit.:format → posts#edit */
    formatted_edit_post_path(id: RouteParam, format: string, options?: UrlOptions): string;
    formatted_edit_post_path(options?: UrlOptions): string;
    /** GET /posts/:id/edit.:format → posts#edit */
    formatted_edit_post_url(id: RouteParam, format: string, options?: UrlOptions): string;
    formatted_edit_post_url(options?: UrlOptions): string;
    hash_for_formatted_edit_post_path(options?: UrlOptions): UrlOptions;
    hash_for_formatted_edit_post_url(options?: UrlOptions): UrlOptions;
    /** GET /posts/:id → posts#show */
    post_path(id: RouteParam, options?: UrlOptions): string;
    post_path(id: RouteParam, format: string, options?: UrlOptions): string;
    post_path(options?: UrlOptions): string;
    /** GET /posts/:id → posts#show */
    post_url(id: RouteParam, options?: UrlOptions): string;
    post_url(id: RouteParam, format: string, options?: UrlOptions): string;
    post_url(options?: UrlOptions): string;
    hash_for_post_path(options?: UrlOptions): UrlOptions;
    hash_for_post_url(options?: UrlOptions): UrlOptions;
    /** GET /posts/:id.:format → posts#show */
    formatted_post_path(id: RouteParam, format: string, options?: UrlOptions): string;
    formatted_post_path(options?: UrlOptions): string;
    /** GET /posts/:id.:format → posts#show */
    formatted_post_url(id: RouteParam, format: string, options?: UrlOptions): string;
    formatted_post_url(options?: UrlOptions): string;
    hash_for_formatted_post_path(options?: UrlOptions): UrlOptions;
    hash_for_formatted_post_url(options?: UrlOptions): UrlOptions;
    /** GET /posts/:post_id/comments → comments#index */
    post_comments_path(post_id: RouteParam, options?: UrlOptions): string;
    post_comments_path(post_id: RouteParam, format: string, options?: UrlOptions): string;
    post_comments_path(options?: UrlOptions): string;
    /** GET /posts/:post_id/comments → comments#index */
    post_comments_url(post_id: RouteParam, options?: UrlOptions): string;
    post_comments_url(post_id: RouteParam, format: string, options?: UrlOptions): string;
    post_comments_url(options?: UrlOptions): string;
    hash_for_post_comments_path(options?: UrlOptions): UrlOptions;
    hash_for_post_comments_url(options?: UrlOptions): UrlOptions;
    /** GET /posts/:post_id/comments.:format → comments#index */
    formatted_post_comments_path(post_id: RouteParam, format: string, options?: UrlOptions): string;
    formatted_post_comments_path(options?: UrlOptions): string;
    /** GET /posts/:post_id/comments.:format → comments#index */
    formatted_post_comments_url(post_id: RouteParam, format: string, options?: UrlOptions): string;
    formatted_post_comments_url(options?: UrlOptions): string;
    hash_for_formatted_post_comments_path(options?: UrlOptions): UrlOptions;
    hash_for_formatted_post_comments_url(options?: UrlOptions): UrlOptions;
    /** GET /posts/:post_id/comments/new → comments#new */
    new_post_comment_path(post_id: RouteParam, options?: UrlOptions): string;
    new_post_comment_path(post_id: RouteParam, format: string, options?: UrlOptions): string;
    new_post_comment_path(options?: UrlOptions): string;
    /** GET /posts/:post_id/comments/new → comments#new */
    new_post_comment_url(post_id: RouteParam, options?: UrlOptions): string;
    new_post_comment_url(post_id: RouteParam, format: string, options?: UrlOptions): string;
    new_post_comment_url(options?: UrlOptions): string;
    hash_for_new_post_comment_path(options?: UrlOptions): UrlOptions;
    hash_for_new_post_comment_url(options?: UrlOptions): UrlOptions;
    /** GET /posts/:post_id/comments/new.:format → comments#new */
    formatted_new_post_comment_path(post_id: RouteParam, format: string, options?: UrlOptions): string;
    formatted_new_post_comment_path(options?: UrlOptions): string;
    /** GET /posts/:post_id/comments/new.:format → comments#new */
    formatted_new_post_comment_url(post_id: RouteParam, format: string, options?: UrlOptions): string;
    formatted_new_post_comment_url(options?: UrlOptions): string;
    hash_for_formatted_new_post_comment_path(options?: UrlOptions): UrlOptions;
    hash_for_formatted_new_post_comment_url(options?: UrlOptions): UrlOptions;
    /** GET /posts/:post_id/comments/:id/edit → comments#edit */
    edit_post_comment_path(post_id: RouteParam, id: RouteParam, options?: UrlOptions): string;
    edit_post_comment_path(post_id: RouteParam, id: RouteParam, format: string, options?: UrlOptions): string;
    edit_post_comment_path(options?: UrlOptions): string;
    /** GET /posts/:post_id/comments/:id/edit → comments#edit */
    edit_post_comment_url(post_id: RouteParam, id: RouteParam, options?: UrlOptions): string;
    edit_post_comment_url(post_id: RouteParam, id: RouteParam, format: string, options?: UrlOptions): string;
    edit_post_comment_url(options?: UrlOptions): string;
    hash_for_edit_post_comment_path(options?: UrlOptions): UrlOptions;
    hash_for_edit_post_comment_url(options?: UrlOptions): UrlOptions;
    /** GET /posts/:post_id/comments/:id/edit.:format → comments#edit */
    formatted_edit_post_comment_path(post_id: RouteParam, id: RouteParam, format: string, options?: UrlOptions): string;
    formatted_edit_post_comment_path(options?: UrlOptions): string;
    /** GET /posts/:post_id/comments/:id/edit.:format → comments#edit */
    formatted_edit_post_comment_url(post_id: RouteParam, id: RouteParam, format: string, options?: UrlOptions): string;
    formatted_edit_post_comment_url(options?: UrlOptions): string;
    hash_for_formatted_edit_post_comment_path(options?: UrlOptions): UrlOptions;
    hash_for_formatted_edit_post_comment_url(options?: UrlOptions): UrlOptions;
    /** GET /posts/:post_id/comments/:id → comments#show */
    post_comment_path(post_id: RouteParam, id: RouteParam, options?: UrlOptions): string;
    post_comment_path(post_id: RouteParam, id: RouteParam, format: string, options?: UrlOptions): string;
    post_comment_path(options?: UrlOptions): string;
    /** GET /posts/:post_id/comments/:id → comments#show */
    post_comment_url(post_id: RouteParam, id: RouteParam, options?: UrlOptions): string;
    post_comment_url(post_id: RouteParam, id: RouteParam, format: string, options?: UrlOptions): string;
    post_comment_url(options?: UrlOptions): string;
    hash_for_post_comment_path(options?: UrlOptions): UrlOptions;
    hash_for_post_comment_url(options?: UrlOptions): UrlOptions;
    /** GET /posts/:post_id/comments/:id.:format → comments#show */
    formatted_post_comment_path(post_id: RouteParam, id: RouteParam, format: string, options?: UrlOptions): string;
    formatted_post_comment_path(options?: UrlOptions): string;
    /** GET /posts/:post_id/comments/:id.:format → comments#show */
    formatted_post_comment_url(post_id: RouteParam, id: RouteParam, format: string, options?: UrlOptions): string;
    formatted_post_comment_url(options?: UrlOptions): string;
    hash_for_formatted_post_comment_path(options?: UrlOptions): UrlOptions;
    hash_for_formatted_post_comment_url(options?: UrlOptions): UrlOptions;
    /** GET /account/new → accounts#new */
    new_account_path(options?: UrlOptions): string;
    new_account_path(format: string, options?: UrlOptions): string;
    /** GET /account/new → accounts#new */
    new_account_url(options?: UrlOptions): string;
    new_account_url(format: string, options?: UrlOptions): string;
    hash_for_new_account_path(options?: UrlOptions): UrlOptions;
    hash_for_new_account_url(options?: UrlOptions): UrlOptions;
    /** GET /account/new.:format → accounts#new */
    formatted_new_account_path(format: string, options?: UrlOptions): string;
    formatted_new_account_path(options?: UrlOptions): string;
    /** GET /account/new.:format → accounts#new */
    formatted_new_account_url(format: string, options?: UrlOptions): string;
    formatted_new_account_url(options?: UrlOptions): string;
    hash_for_formatted_new_account_path(options?: UrlOptions): UrlOptions;
    hash_for_formatted_new_account_url(options?: UrlOptions): UrlOptions;
    /** GET /account/edit → accounts#edit */
    edit_account_path(options?: UrlOptions): string;
    edit_account_path(format: string, options?: UrlOptions): string;
    /** GET /account/edit → accounts#edit */
    edit_account_url(options?: UrlOptions): string;
    edit_account_url(format: string, options?: UrlOptions): string;
    hash_for_edit_account_path(options?: UrlOptions): UrlOptions;
    hash_for_edit_account_url(options?: UrlOptions): UrlOptions;
    /** GET /account/edit.:format → accounts#edit */
    formatted_edit_account_path(format: string, options?: UrlOptions): string;
    formatted_edit_account_path(options?: UrlOptions): string;
    /** GET /account/edit.:format → accounts#edit */
    formatted_edit_account_url(format: string, options?: UrlOptions): string;
    formatted_edit_account_url(options?: UrlOptions): string;
    hash_for_formatted_edit_account_path(options?: UrlOptions): UrlOptions;
    hash_for_formatted_edit_account_url(options?: UrlOptions): UrlOptions;
    /** GET /account → accounts#show */
    account_path(options?: UrlOptions): string;
    account_path(format: string, options?: UrlOptions): string;
    /** GET /account → accounts#show */
    account_url(options?: UrlOptions): string;
    account_url(format: string, options?: UrlOptions): string;
    hash_for_account_path(options?: UrlOptions): UrlOptions;
    hash_for_account_url(options?: UrlOptions): UrlOptions;
    /** GET /account.:format → accounts#show */
    formatted_account_path(format: string, options?: UrlOptions): string;
    formatted_account_path(options?: UrlOptions): string;
    /** GET /account.:format → accounts#show */
    formatted_account_url(format: string, options?: UrlOptions): string;
    formatted_account_url(options?: UrlOptions): string;
    hash_for_formatted_account_path(options?: UrlOptions): UrlOptions;
    hash_for_formatted_account_url(options?: UrlOptions): UrlOptions;
    /** GET /login → sessions#new */
    login_path(options?: UrlOptions): string;
    /** GET /login → sessions#new */
    login_url(options?: UrlOptions): string;
    hash_for_login_path(options?: UrlOptions): UrlOptions;
    hash_for_login_url(options?: UrlOptions): UrlOptions;
    /** DELETE /logout → sessions#destroy */
    logout_path(options?: UrlOptions): string;
    /** DELETE /logout → sessions#destroy */
    logout_url(options?: UrlOptions): string;
    hash_for_logout_path(options?: UrlOptions): UrlOptions;
    hash_for_logout_url(options?: UrlOptions): UrlOptions;
    /** GET /admin/posts → admin/posts#index */
    admin_posts_path(options?: UrlOptions): string;
    admin_posts_path(format: string, options?: UrlOptions): string;
    /** GET /admin/posts → admin/posts#index */
    admin_posts_url(options?: UrlOptions): string;
    admin_posts_url(format: string, options?: UrlOptions): string;
    hash_for_admin_posts_path(options?: UrlOptions): UrlOptions;
    hash_for_admin_posts_url(options?: UrlOptions): UrlOptions;
    /** GET /admin/posts.:format → admin/posts#index */
    formatted_admin_posts_path(format: string, options?: UrlOptions): string;
    formatted_admin_posts_path(options?: UrlOptions): string;
    /** GET /admin/posts.:format → admin/posts#index */
    formatted_admin_posts_url(format: string, options?: UrlOptions): string;
    formatted_admin_posts_url(options?: UrlOptions): string;
    hash_for_formatted_admin_posts_path(options?: UrlOptions): UrlOptions;
    hash_for_formatted_admin_posts_url(options?: UrlOptions): UrlOptions;
    /** GET /admin/posts/:id → admin/posts#show */
    admin_post_path(id: RouteParam, options?: UrlOptions): string;
    admin_post_path(id: RouteParam, format: string, options?: UrlOptions): string;
    admin_post_path(options?: UrlOptions): string;
    /** GET /admin/posts/:id → admin/posts#show */
    admin_post_url(id: RouteParam, options?: UrlOptions): string;
    admin_post_url(id: RouteParam, format: string, options?: UrlOptions): string;
    admin_post_url(options?: UrlOptions): string;
    hash_for_admin_post_path(options?: UrlOptions): UrlOptions;
    hash_for_admin_post_url(options?: UrlOptions): UrlOptions;
    /** GET /admin/posts/:id.:format → admin/posts#show */
    formatted_admin_post_path(id: RouteParam, format: string, options?: UrlOptions): string;
    formatted_admin_post_path(options?: UrlOptions): string;
    /** GET /admin/posts/:id.:format → admin/posts#show */
    formatted_admin_post_url(id: RouteParam, format: string, options?: UrlOptions): string;
    formatted_admin_post_url(options?: UrlOptions): string;
    hash_for_formatted_admin_post_path(options?: UrlOptions): UrlOptions;
    hash_for_formatted_admin_post_url(options?: UrlOptions): UrlOptions;
    /** GET /admin/crash → admin/dashboard#crash */
    admin_crash_path(options?: UrlOptions): string;
    /** GET /admin/crash → admin/dashboard#crash */
    admin_crash_url(options?: UrlOptions): string;
    hash_for_admin_crash_path(options?: UrlOptions): UrlOptions;
    hash_for_admin_crash_url(options?: UrlOptions): UrlOptions;
    /** ANY /admin → admin/dashboard#index */
    admin_root_path(options?: UrlOptions): string;
    /** ANY /admin → admin/dashboard#index */
    admin_root_url(options?: UrlOptions): string;
    hash_for_admin_root_path(options?: UrlOptions): UrlOptions;
    hash_for_admin_root_url(options?: UrlOptions): UrlOptions;
    /** ANY / → posts#index */
    root_path(options?: UrlOptions): string;
    /** ANY / → posts#index */
    root_url(options?: UrlOptions): string;
    hash_for_root_path(options?: UrlOptions): UrlOptions;
    hash_for_root_url(options?: UrlOptions): UrlOptions;
  }
}
