import { createHash } from 'node:crypto';

import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

import { SessionsService } from '../auth/sessions.service.js';
import { ContentVersion } from '../publishing/content-version.js';

interface Entry {
  version: string;
  body: Buffer;
  etag: string;
}

/** Bounds the memory the cache may hold; when full it starts again empty. */
const MAX_BYTES = 64 * 1024 * 1024;

/**
 * Anonymous reads of public content (the site build, visitors) are the same for everyone until
 * content changes, so their serialised JSON is kept and served again while the content version
 * is unchanged; Express answers 304 to a matching If-None-Match. Book answers also follow the
 * download counter, so a counted download shows at once. Only a valid admin session gets
 * uncached answers: any other Authorization header is dropped here (the request is anonymous, as
 * it would be anyway), so a made-up token cannot turn the cheapest request into the dearest.
 */
@Injectable()
export class PublicReadCache implements NestMiddleware {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly versions: ContentVersion,
    private readonly sessions: SessionsService,
  ) {}

  async use(req: Request, res: Response, next: NextFunction) {
    if (req.method !== 'GET') return next();
    // Anonymous answers never depend on the query string (includeDeleted is for admins only), so
    // the key is the path alone, normalised: endless query or case variants cannot fill memory.
    const key = req.originalUrl.split('?')[0].toLowerCase().replace(/\/+$/, '');
    let version: string;
    try {
      const authorization = req.headers.authorization;
      if (authorization) {
        const token = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
        if (token && (await this.sessions.resolve(token))) return next();
        delete req.headers.authorization;
      }
      const current = await this.versions.current();
      version = key.startsWith('/api/books') ? `${current.content}.${current.downloads}` : String(current.content);
    } catch (error) {
      return next(error);
    }
    const hit = this.entries.get(key);
    if (hit && hit.version === version) {
      res.setHeader('ETag', hit.etag);
      res.type('application/json');
      res.send(hit.body);
      return;
    }
    const json = res.json.bind(res);
    res.json = (value: unknown) => {
      if (res.statusCode !== 200) return json(value);
      const body = Buffer.from(JSON.stringify(value));
      const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
      const previous = this.entries.get(key);
      if (previous) this.bytes -= previous.body.length;
      if (this.bytes + body.length > MAX_BYTES) {
        this.entries.clear();
        this.bytes = 0;
      }
      this.entries.set(key, { version, body, etag });
      this.bytes += body.length;
      res.setHeader('ETag', etag);
      res.type('application/json');
      return res.send(body);
    };
    next();
  }
}
