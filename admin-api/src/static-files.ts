import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';

import type { INestApplication } from '@nestjs/common';
import { CONTENT_KINDS, type KindDefinition, KINDS } from '@portfolio/contract/kinds';
import { LANGUAGE_INFO, languageOfPath, pathFor, unprefixedPath } from '@portfolio/contract/languages';
import { SECURITY_HEADERS, UPLOAD_CSP } from '@portfolio/contract/security-headers';
import express from 'express';

import { isCompressible, sendCompressed } from './compressed-files.js';
import type { AppConfig } from './config/config.js';
import { FileStorage } from './uploads/file-storage.js';
import type { S3Storage } from './uploads/s3-storage.js';
import { storedFileType } from './uploads/sniff.js';

const nosniff = (res: express.Response) => res.setHeader('X-Content-Type-Options', 'nosniff');
/** A page of the site: the headers nginx sends with it in production. */
const pageHeaders = (res: express.Response) => {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
};

/**
 * Only the types an upload can have are served from /uploads/, typed by the server-made extension
 * and sandboxed, whatever the disk or the bucket holds (e.g. a file put there by hand): nothing
 * there can run as a page of this site, where the overlay keeps its session.
 */
function uploadsOnly(serve: express.RequestHandler): express.RequestHandler {
  return (req, res, next) => {
    const type = storedFileType(req.path);
    if (!type || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    nosniff(res);
    res.setHeader('Content-Security-Policy', UPLOAD_CSP);
    res.type(type.mime);
    return serve(req, res, next);
  };
}

/**
 * Files served beside the API on the embedded default (nginx serves them in production):
 * uploads, the admin overlay bundle, and the live public site with its 404 page.
 */
export function serveStaticFiles(app: INestApplication, config: AppConfig) {
  if (config.storage.kind === 's3') {
    app.use('/uploads', uploadsOnly(serveFromBucket(app.get(FileStorage) as S3Storage, config.storage.publicUrl)));
  } else {
    app.use(
      '/uploads',
      uploadsOnly(
        express.static(config.storage.dir, {
          dotfiles: 'ignore',
          index: false,
          immutable: true,
          maxAge: '365d',
        }),
      ),
    );
  }
  app.use(
    '/admin-ui',
    express.static(config.adminUiDir, {
      index: false,
      setHeaders: (res, file) => {
        nosniff(res);
        // Hashed chunk names never change content; the entry module keeps its name, so revalidate it.
        res.setHeader('Cache-Control', /-[A-Za-z0-9_-]{8,}\.(js|css)$/.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    }),
  );
  // /book/{id} is the other address of /books/{id}, which the site builds once.
  app.use((req: express.Request, res: express.Response, next: express.NextFunction) => {
    const book = /^\/book\/(\d+)\/?$/.exec(unprefixedPath(req.path));
    if (book && (req.method === 'GET' || req.method === 'HEAD'))
      return res.redirect(301, pathFor(languageOfPath(req.path), `/books/${book[1]}`));
    next();
  });
  // Pages are built as files (/books → books.html, /books/7 → books/7.html): clean addresses without
  // redirects, although a folder of the same name (books/) exists beside the page.
  app.use((req: express.Request, _res: express.Response, next: express.NextFunction) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && /^\/[\w\-/]*[\w-]$/.test(req.path) && !req.path.startsWith('/api/')) {
      if (existsSync(path.join(config.siteDir, `${req.path}.html`))) req.url = `${req.path}.html${req.url.slice(req.path.length)}`;
      // A folder's own page (the Arabic home, /ar → ar/index.html) without a redirect.
      else if (existsSync(path.join(config.siteDir, req.path, 'index.html')))
        req.url = `${req.path}/index.html${req.url.slice(req.path.length)}`;
    }
    next();
  });
  app.use(serveLiveVersion(config));
  // Any other page path is the site's "Page Not Found", with a real 404 status.
  app.use((req: express.Request, res: express.Response, next: express.NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || /^\/(api|uploads|admin-ui)(\/|$)/.test(req.path)) return next();
    // (A site built before the section pages existed has only 404.html.)
    const notFound = [notFoundPage(req.path), '404.html'].map((file) => path.join(config.siteDir, file)).find((file) => existsSync(file));
    if (!notFound) return next();
    res.status(404);
    const headers = (r: express.Response) => {
      pageHeaders(r);
      r.setHeader('Cache-Control', 'no-cache');
      r.setHeader('Vary', 'Accept-Encoding');
    };
    sendCompressed(req, res, notFound, headers).then((sent) => {
      if (sent) return;
      headers(res);
      res.sendFile(notFound);
    }, next);
  });
}

/**
 * Each request is served from the version `live` points at when it arrives: looking a file up and
 * reading it through the link could straddle a publish that switches it (a cut-off answer).
 */
function serveLiveVersion(config: AppConfig): express.Handler {
  const versions = new Map<string, express.Handler>();
  /** What nginx sends with a site file: the security headers, and a year for hashed assets, revalidation for the rest. */
  const siteFileHeaders = (res: express.Response, file: string) => {
    pageHeaders(res);
    res.setHeader('Cache-Control', file.includes(`${path.sep}_astro${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (isCompressible(file)) res.setHeader('Vary', 'Accept-Encoding');
  };
  const serveVersion = (root: string) =>
    express.static(root, { index: 'index.html', extensions: ['html'], redirect: false, setHeaders: siteFileHeaders });
  return async (req: express.Request, res: express.Response, next: express.NextFunction) => {
    let root: string;
    try {
      root = realpathSync(config.siteDir);
    } catch {
      return next();
    }
    const file = (req.method === 'GET' || req.method === 'HEAD') && siteFile(root, req.path);
    try {
      if (file && (await sendCompressed(req, res, file, (r) => siteFileHeaders(r, file)))) return;
    } catch (error) {
      return next(error);
    }
    let serve = versions.get(root);
    if (!serve) {
      if (versions.size >= 8) versions.clear();
      versions.set(root, (serve = serveVersion(root)));
    }
    serve(req, res, next);
  };
}

/**
 * The file under a site version that express.static would send for a request path (folders by their
 * index.html), or null for paths it refuses (dot segments, a NUL, outside the root).
 */
function siteFile(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.split('/').some((part) => part.startsWith('.'))) return null;
  const file = path.join(root, decoded.endsWith('/') ? `${decoded}index.html` : decoded);
  return file.startsWith(root + path.sep) ? file : null;
}

/**
 * The addresses of missing items that have a not-found page of their section (site/src/lib/not-found.ts),
 * from @portfolio/contract/kinds: each kind's item page is its kind's section; its other item pages
 * (a book's reviews) are named by their last segment.
 */
const ID = 2147483647;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const NOT_FOUND_SECTIONS = CONTENT_KINDS.flatMap((kind) => {
  const { itemPages, labels, category } = KINDS[kind] as KindDefinition;
  if (!labels.notFoundPage) return [];
  const sections = itemPages.map((page, index) => {
    const [before, after] = page.path(ID).split(String(ID));
    const pattern = new RegExp(`^${escapeRegExp(before)}\\d+${escapeRegExp(after)}/?$`);
    return { pattern, section: index === 0 ? kind : after.split('/').pop()! };
  });
  // A category's archive (`/essays/category/poetry`): site/src/lib/not-found.ts names its page `essays_category`.
  if (category?.archive) {
    const [before, after] = category.archive('SLUG').split('SLUG');
    sections.push({ pattern: new RegExp(`^${escapeRegExp(before)}[^/]+${escapeRegExp(after)}/?$`), section: `${kind}_category` });
  }
  return sections;
});

/**
 * The site's not-found page for an address (as infra/nginx/site.conf maps it): a missing item's
 * address gets its section's page, an address under a language's prefix (/ar/) that language's one. (/book/{id} never gets here: it
 * is redirected to /books/{id} above.)
 */
export function notFoundPage(urlPath: string): string {
  const prefix = LANGUAGE_INFO[languageOfPath(urlPath)].prefix;
  const folder = prefix ? `${prefix.slice(1)}/` : '';
  const address = unprefixedPath(urlPath);
  const section = NOT_FOUND_SECTIONS.find(({ pattern }) => pattern.test(address))?.section;
  return section ? `${folder}404/${section}.html` : `${folder}404.html`;
}

/**
 * /uploads/… when uploads live in an S3 bucket: the stored address stays /uploads/<folder>/<name>.
 * With UPLOADS_PUBLIC_URL (a public bucket or CDN base) a GET is redirected there (302, so the
 * choice can change later); otherwise the object is streamed from the bucket with the headers of
 * the local folder (nosniff, a year immutable, its type, ETag, Range).
 */
function serveFromBucket(storage: S3Storage, publicUrl: string | null) {
  return async (req: express.Request, res: express.Response, next: express.NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    let filePath: string;
    try {
      filePath = decodeURIComponent(req.path).replace(/^\/+/, '');
    } catch {
      return next();
    }
    if (!filePath || filePath.split('/').some((part) => !part || part.startsWith('.'))) return next();
    if (publicUrl) {
      res.setHeader('Cache-Control', 'public, max-age=3600');
      return res.redirect(302, `${publicUrl}/${filePath.split('/').map(encodeURIComponent).join('/')}`);
    }
    try {
      const answer = await storage.serve(filePath, {
        head: req.method === 'HEAD',
        range: typeof req.headers.range === 'string' ? req.headers.range : undefined,
        ifNoneMatch: typeof req.headers['if-none-match'] === 'string' ? req.headers['if-none-match'] : undefined,
      });
      if (!answer) return next();
      nosniff(res);
      res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      res.status(answer.status);
      for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
      if (!answer.body) return res.end();
      const body = answer.body;
      body.on('error', (error) => res.destroy(error));
      // A visitor who goes away must not keep the bucket's connection busy.
      res.on('close', () => body.destroy());
      body.pipe(res);
    } catch (error) {
      next(error);
    }
  };
}
