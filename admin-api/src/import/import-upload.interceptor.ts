import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

import {
  BadRequestException,
  type CallHandler,
  type ExecutionContext,
  Inject,
  Injectable,
  type NestInterceptor,
  PayloadTooLargeException,
} from '@nestjs/common';
import type { Request, RequestHandler, Response } from 'express';
import multer from 'multer';

import { refusal } from '../common/api-message.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';

/** The folder (inside the imports folder) where uploads arrive before they are read. */
export const INCOMING = 'incoming';

/**
 * The export file of POST /api/imports, streamed to disk (an export may be hundreds of megabytes:
 * never held in memory) under a server-made name, up to IMPORT_MAX_MB. A larger one is refused with
 * one message, early when its length is declared, and what was written of it is removed.
 */
@Injectable()
export class ImportUploadInterceptor implements NestInterceptor {
  private readonly upload: RequestHandler;
  private readonly maxBytes: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const dir = path.join(config.imports.dir, INCOMING);
    this.maxBytes = config.imports.maxFileBytes;
    this.upload = multer({
      storage: multer.diskStorage({
        destination: (_req, _file, done) => {
          mkdirSync(dir, { recursive: true });
          done(null, dir);
        },
        filename: (_req, _file, done) => done(null, randomUUID()),
      }),
      limits: { fileSize: this.maxBytes, files: 1, fields: 5 },
    }).single('file');
  }

  private tooLarge() {
    return new PayloadTooLargeException(refusal('error.importTooLarge', { params: { mb: Math.round(this.maxBytes / 1024 / 1024) } }));
  }

  async intercept(context: ExecutionContext, next: CallHandler) {
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    // The multipart envelope adds a few hundred bytes to the file; anything far beyond the limit is refused unread.
    if (Number(req.headers['content-length'] ?? 0) > this.maxBytes + 64 * 1024) {
      res.setHeader('Connection', 'close');
      throw this.tooLarge();
    }
    await new Promise<void>((resolve, reject) =>
      this.upload(req, res, (error: unknown) => {
        if (!error) return resolve();
        if (error instanceof multer.MulterError && error.code === 'LIMIT_FILE_SIZE') {
          res.setHeader('Connection', 'close');
          return reject(this.tooLarge());
        }
        reject(new BadRequestException(refusal('error.bodyUnreadable')));
      }),
    );
    return next.handle();
  }
}
