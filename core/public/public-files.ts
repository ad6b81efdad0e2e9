/**
 * Answers from the app's `public/` directory, before routing (as the web
 * server in front of a Rails app would): assets, error pages, and cached
 * pages (`/posts/1` from `public/posts/1.html`). Pages the page cache wrote
 * (`caches_page`) are looked up first, in its own directory, and answered
 * as the app answered them (Content-Type, ETag, revalidation with
 * If-None-Match). The request machine asks here in its first state,
 * `servingPublic`, so these answers are traced, logged and finished
 * (`X-Runtime`, `X-Cache: hit`) like any other.
 *
 * Nothing here blocks the event loop: a cached page and a public file are
 * read asynchronously, so an answer may be a promise. It is null at once
 * when there is nothing to look for (no page of this process's for the
 * path, and a path known to name no file), which is most requests.
 *
 * Content types come from the app's MIME registry, then from the mime-db
 * database (`mime-types`), which knows every registered extension (`.mjs`,
 * `.wasm`, `.woff2`, `.mp4`...); text types carry `charset=utf-8`.
 * Cache-Control is short by default (`public, max-age=60`, `no-cache` in
 * development, so edits show at once), and a year, `immutable`, for a
 * Rails-style asset URL that names the file's version in its query
 * (`/stylesheets/app.css?1700000000`).
 *
 * Which files may be served is public-directory.ts's; a file's answer
 * (validators, ranges, memory or disk) is file-answer.ts's.
 */
import { extname } from 'node:path';
import mimeTypes from 'mime-types';
import type { CachedPage, PageCache, PageInfo } from '../caching/page-cache.ts';
import { BadRequest } from '../errors.ts';
import { ifNoneMatchNames, REVALIDATE } from '../http/etag.ts';
import type { Response } from '../http/response.ts';
import type { MimeRegistry } from '../mime/types.ts';
import { undecodablePath } from '../request/env.ts';
import { fileAnswer, headerOf, publicResponse, type FileRequest } from './file-answer.ts';
import { PublicDirectory } from './public-directory.ts';

const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|manifest\+json))/;
/** Cache-Control for an asset URL whose query names its version (Rails' asset ids: `?1700000000`). */
export const VERSIONED_CACHE_CONTROL = 'public, max-age=31536000, immutable';
export const DEFAULT_CACHE_CONTROL = 'public, max-age=60';
export const DEVELOPMENT_CACHE_CONTROL = 'no-cache';

export interface PublicFilesSettings {
  /** The app's public directory, or null for none. */
  readonly root: string | null;
  /** The page cache, or null when the app has none. */
  readonly pages: PageCache | null;
  readonly mime: MimeRegistry;
  /** In development a public file is never cached by the browser, so edits show at once. */
  readonly development: boolean;
}

/** A response from the public directory, and for a cached page, which action rendered it. */
export interface PublicAnswer {
  readonly response: Response;
  readonly page: Pick<PageInfo, 'controller' | 'action'> | null;
}

/** An app's public directory and page cache, as the request machine's first state reads them. Made once by `createApp`. */
export class PublicFiles {
  readonly root: string | null;
  readonly pages: PageCache | null;
  /** The directory's files as they are on disk (null without a directory). */
  readonly directory: PublicDirectory | null;
  readonly #mime: MimeRegistry;
  readonly #cacheControl: string;

  constructor(settings: PublicFilesSettings) {
    this.root = settings.root;
    this.pages = settings.pages;
    this.directory = settings.root === null ? null : new PublicDirectory(settings.root);
    this.#mime = settings.mime;
    this.#cacheControl = settings.development ? DEVELOPMENT_CACHE_CONTROL : DEFAULT_CACHE_CONTROL;
  }

  /**
   * The answer to a GET or HEAD for `url` from a cached page or a public file, or null to let the app
   * answer: null at once when there is nothing to look for, else possibly a promise. The query string
   * plays no part in which file answers (a page is never cached for a query). A path whose escapes do
   * not decode is a `BadRequest`.
   */
  answer(url: string, request: FileRequest): PublicAnswer | null | Promise<PublicAnswer | null> {
    const pages = this.pages;
    // Most apps serve most requests from neither: they pay for nothing more.
    if ((pages === null || pages.size === 0) && this.directory === null) return null;
    const q = url.indexOf('?');
    const target = q < 0 ? url : url.slice(0, q);
    let path: string;
    try {
      path = decodeURIComponent(target);
    } catch {
      // The first reader of the path refuses it, as parsing would: no file, page or route could answer it.
      throw new BadRequest(undecodablePath(target));
    }
    const query = q < 0 ? '' : url.slice(q + 1);
    // The page cache never writes a page for a query, which might change it: such requests go to the app.
    if (pages !== null && (q < 0 || q === url.length - 1)) {
      const reading = pages.read(path, headerOf(request, 'accept'));
      if (reading !== null) {
        return reading.then((page) => (page !== null ? this.#pageAnswer(page, request) : this.#publicFile(path, query, request)));
      }
    }
    return this.#publicFile(path, query, request);
  }

  /** Stops watching the directory. */
  close(): void {
    this.directory?.close();
  }

  /** The public file at `path`: null at once when there is none to look for, else a promise. */
  #publicFile(path: string, query: string, request: FileRequest): Promise<PublicAnswer | null> | null {
    const directory = this.directory;
    if (directory === null || directory.knownMissing(path)) return null;
    return directory.lookup(path).then(async (file) => {
      if (file === null) return null;
      const response = await fileAnswer(file, request, this.#contentTypeFor(extname(file).toLowerCase()), this.#cacheControlFor(query));
      return response === null ? null : { response, page: null };
    });
  }

  /** Far-future for a versioned asset URL (`?1700000000`, as Rails' asset tags write), else the short default. */
  #cacheControlFor(query: string): string {
    return /^\d+$/.test(query) ? VERSIONED_CACHE_CONTROL : this.#cacheControl;
  }

  #pageAnswer(page: CachedPage, request: FileRequest): PublicAnswer {
    const res = publicResponse();
    if (ifNoneMatchNames(headerOf(request, 'if-none-match'), page.etag)) {
      res.status = 304;
    } else {
      // The type the app sent, charset and all; an extension alone cannot say it.
      res.content_type = page.content_type ?? this.#contentTypeFor(`.${page.extension}`);
      res.body = page.body;
    }
    res.set_header('ETag', page.etag);
    res.set_header('Cache-Control', REVALIDATE);
    return { response: res, page: { controller: page.controller, action: page.action } };
  }

  /** The app's registered type for the extension, else mime-db's, else `application/octet-stream`; text types with their charset. */
  #contentTypeFor(ext: string): string {
    const type = this.#mime.lookup_by_extension(ext.slice(1))?.string || mimeTypes.lookup(ext) || 'application/octet-stream';
    return TEXT_TYPES.test(type) ? `${type}; charset=utf-8` : type;
  }
}
