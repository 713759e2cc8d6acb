import { createHash } from 'node:crypto';
import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ContentVersion } from '../publishing/content-version.js';

interface Entry {
  version: number;
  body: Buffer;
  etag: string;
}

const MAX_ENTRIES = 5000;

/**
 * Anonymous reads of public content (the site build, visitors) are the same for everyone until
 * content changes, so their serialised JSON is kept and served again while the content version
 * is unchanged; Express answers 304 to a matching If-None-Match. Requests with an Authorization
 * header (admins) always go to the database. Download counts in cached answers may lag until
 * the next content change; nothing public depends on them being live.
 */
@Injectable()
export class PublicReadCache implements NestMiddleware {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly version: ContentVersion) {}

  async use(req: Request, res: Response, next: NextFunction) {
    if (req.method !== 'GET' || req.headers.authorization) return next();
    const key = req.originalUrl;
    let version: number;
    try {
      version = await this.version.current();
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
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(key, { version, body, etag });
      res.setHeader('ETag', etag);
      res.type('application/json');
      return res.send(body);
    };
    next();
  }
}
