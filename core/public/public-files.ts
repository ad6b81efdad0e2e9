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
 * Which files may be served is public-index.ts's; a file's answer
 * (validators, ranges, memory or disk) is file-answer.ts's.
 */
import { extname } from 'node:path';
import type { PageCache, PageInfo } from '../caching/page-cache.ts';
import { BadRequest } from '../errors.ts';
import { ifNoneMatchNames, REVALIDATE } from '../http/etag.ts';
import type { Response } from '../http/response.ts';
import type { MimeRegistry } from '../mime/types.ts';
import { fileAnswer, headerOf, publicResponse, type FileRequest } from './file-answer.ts';
import { PublicIndex } from './public-index.ts';

const FALLBACK_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html', '.css': 'text/css', '.js': 'text/javascript', '.json': 'application/json', '.xml': 'application/xml',
  '.txt': 'text/plain', '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif',
  '.svg': 'image/svg+xml', '.ico': 'image/x-icon', '.webp': 'image/webp', '.woff2': 'font/woff2', '.map': 'application/json',
};
const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript))/;

export interface PublicFilesSettings {
  /** The app's public directory, or null for none. */
  readonly root: string | null;
  /** The page cache, or null when the app has none. */
  readonly pages: PageCache | null;
  readonly mime: MimeRegistry;
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
  readonly #mime: MimeRegistry;
  #index: PublicIndex | null | undefined = undefined;

  constructor(settings: PublicFilesSettings) {
    this.root = settings.root;
    this.pages = settings.pages;
    this.#mime = settings.mime;
  }

  /** The directory's index, built on first use (null without a directory). */
  get index(): PublicIndex | null {
    if (this.#index === undefined) this.#index = this.root === null ? null : new PublicIndex(this.root);
    return this.#index;
  }

  /**
   * The answer to a GET or HEAD for `url` from a cached page or a public file, or null to let the app
   * answer. The query string plays no part (a page is never cached for a query). A path whose
   * escapes do not decode is a `BadRequest`.
   */
  answer(url: string, request: FileRequest): PublicAnswer | null {
    const pages = this.pages;
    const index = this.index;
    // Most apps serve most requests from neither: they pay for nothing more.
    if ((pages === null || pages.size === 0) && (index === null || index.size === 0)) return null;
    const q = url.indexOf('?');
    const target = q < 0 ? url : url.slice(0, q);
    let path: string;
    try {
      path = decodeURIComponent(target);
    } catch {
      // The first reader of the path refuses it, as parsing would: no file, page or route could answer it.
      throw new BadRequest(`Malformed percent-encoding in path ${JSON.stringify(target.slice(0, 200))}`);
    }
    // The page cache never writes a page for a query, which might change it: such requests go to the app.
    if (pages !== null && (q < 0 || q === url.length - 1)) {
      const page = this.#cachedPage(pages, path, request);
      if (page !== null) return page;
    }
    if (index === null || index.size === 0) return null;
    const file = index.lookup(path);
    if (file === null) return null;
    const response = fileAnswer(file, request, this.#contentTypeFor(extname(file).toLowerCase()));
    return response === null ? null : { response, page: null };
  }

  #cachedPage(pages: PageCache, path: string, request: FileRequest): PublicAnswer | null {
    const page = pages.read(path, headerOf(request, 'accept'));
    if (page === null) return null;
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

  #contentTypeFor(ext: string): string {
    const type = this.#mime.lookup_by_extension(ext.slice(1))?.string ?? FALLBACK_TYPES[ext] ?? 'application/octet-stream';
    return TEXT_TYPES.test(type) ? `${type}; charset=utf-8` : type;
  }
}
