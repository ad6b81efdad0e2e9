// The route helpers of routes.js, written by `signalbox routes --types`. Regenerate it when the routes change; do not edit.
import type { RouteParam, UrlOptions } from 'signalbox';

declare module 'signalbox' {
  interface RouteHelpers {
    /** GET /notes → notes#index */
    notes_path(options?: UrlOptions): string;
    notes_path(format: string, options?: UrlOptions): string;
    /** GET /notes → notes#index */
    notes_url(options?: UrlOptions): string;
    notes_url(format: string, options?: UrlOptions): string;
    hash_for_notes_path(options?: UrlOptions): UrlOptions;
    hash_for_notes_url(options?: UrlOptions): UrlOptions;
    /** GET /notes.:format → notes#index */
    formatted_notes_path(format: string, options?: UrlOptions): string;
    formatted_notes_path(options?: UrlOptions): string;
    /** GET /notes.:format → notes#index */
    formatted_notes_url(format: string, options?: UrlOptions): string;
    formatted_notes_url(options?: UrlOptions): string;
    hash_for_formatted_notes_path(options?: UrlOptions): UrlOptions;
    hash_for_formatted_notes_url(options?: UrlOptions): UrlOptions;
    /** GET /notes/new → notes#new */
    new_note_path(options?: UrlOptions): string;
    new_note_path(format: string, options?: UrlOptions): string;
    /** GET /notes/new → notes#new */
    new_note_url(options?: UrlOptions): string;
    new_note_url(format: string, options?: UrlOptions): string;
    hash_for_new_note_path(options?: UrlOptions): UrlOptions;
    hash_for_new_note_url(options?: UrlOptions): UrlOptions;
    /** GET /notes/new.:format → notes#new */
    formatted_new_note_path(format: string, options?: UrlOptions): string;
    formatted_new_note_path(options?: UrlOptions): string;
    /** GET /notes/new.:format → notes#new */
    formatted_new_note_url(format: string, options?: UrlOptions): string;
    formatted_new_note_url(options?: UrlOptions): string;
    hash_for_formatted_new_note_path(options?: UrlOptions): UrlOptions;
    hash_for_formatted_new_note_url(options?: UrlOptions): UrlOptions;
    /** GET /notes/:id/edit → notes#edit */
    edit_note_path(id: RouteParam, options?: UrlOptions): string;
    edit_note_path(id: RouteParam, format: string, options?: UrlOptions): string;
    edit_note_path(options?: UrlOptions): string;
    /** GET /notes/:id/edit → notes#edit */
    edit_note_url(id: RouteParam, options?: UrlOptions): string;
    edit_note_url(id: RouteParam, format: string, options?: UrlOptions): string;
    edit_note_url(options?: UrlOptions): string;
    hash_for_edit_note_path(options?: UrlOptions): UrlOptions;
    hash_for_edit_note_url(options?: UrlOptions): UrlOptions;
    /** GET /notes/:id/edit.:format → notes#edit */
    formatted_edit_note_path(id: RouteParam, format: string, options?: UrlOptions): string;
    formatted_edit_note_path(options?: UrlOptions): string;
    /** GET /notes/:id/edit.:format → notes#edit */
    formatted_edit_note_url(id: RouteParam, format: string, options?: UrlOptions): string;
    formatted_edit_note_url(options?: UrlOptions): string;
    hash_for_formatted_edit_note_path(options?: UrlOptions): UrlOptions;
    hash_for_formatted_edit_note_url(options?: UrlOptions): UrlOptions;
    /** GET /notes/:id → notes#show */
    note_path(id: RouteParam, options?: UrlOptions): string;
    note_path(id: RouteParam, format: string, options?: UrlOptions): string;
    note_path(options?: UrlOptions): string;
    /** GET /notes/:id → notes#show */
    note_url(id: RouteParam, options?: UrlOptions): string;
    note_url(id: RouteParam, format: string, options?: UrlOptions): string;
    note_url(options?: UrlOptions): string;
    hash_for_note_path(options?: UrlOptions): UrlOptions;
    hash_for_note_url(options?: UrlOptions): UrlOptions;
    /** GET /notes/:id.:format → notes#show */
    formatted_note_path(id: RouteParam, format: string, options?: UrlOptions): string;
    formatted_note_path(options?: UrlOptions): string;
    /** GET /notes/:id.:format → notes#show */
    formatted_note_url(id: RouteParam, format: string, options?: UrlOptions): string;
    formatted_note_url(options?: UrlOptions): string;
    hash_for_formatted_note_path(options?: UrlOptions): UrlOptions;
    hash_for_formatted_note_url(options?: UrlOptions): UrlOptions;
    /** ANY / → notes#index */
    root_path(options?: UrlOptions): string;
    /** ANY / → notes#index */
    root_url(options?: UrlOptions): string;
    hash_for_root_path(options?: UrlOptions): UrlOptions;
    hash_for_root_url(options?: UrlOptions): UrlOptions;
  }
}
