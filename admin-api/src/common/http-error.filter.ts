import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Inject, Logger } from '@nestjs/common';
import {
  isMessageKey,
  isMessageRef,
  type MessageKey,
  type MessageParams,
  type MessageRef,
  messageText,
} from '@portfolio/contract/messages';
import type { ErrorBody } from '@portfolio/contract/types';
import type { Response } from 'express';

import { APP_CONFIG, type AppConfig } from '../config/config.js';

/** An answer naming a catalogue message: its English text and its key. */
function keyed(statusCode: number, key: MessageKey, params?: MessageParams): ErrorBody {
  return { statusCode, message: messageText(key, 'en', params), messageKey: key, ...(params ? { messageParams: params } : {}) };
}

const DB_UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_SERVER_SHUTDOWN',
  'ER_CON_COUNT_ERROR',
  'ER_LOCK_WAIT_TIMEOUT',
  'ER_LOCK_DEADLOCK',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
]);

export function isDatabaseUnavailable(error: unknown): boolean {
  let e = error as { code?: string; driverError?: unknown; cause?: unknown; name?: string; message?: string } | undefined;
  for (let depth = 0; e && depth < 4; depth++) {
    if (e.code && DB_UNAVAILABLE_CODES.has(e.code)) return true;
    if (e.name === 'CannotExecuteNotConnectedError' || e.name === 'ConnectionIsNotSetError') return true;
    if (typeof e.message === 'string' && /closed state|Pool is closed|connection is in closed/i.test(e.message)) return true;
    e = (e.driverError ?? e.cause) as typeof e;
  }
  return false;
}

/** The one error format, the contract's ErrorBody: `{statusCode, message, errors?}`. Never a stack trace. */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpError');

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  catch(exception: unknown, host: ArgumentsHost) {
    const res = host.switchToHttp().getResponse<Response>();
    const body = this.toBody(exception);
    if (res.headersSent) return;
    if (body.statusCode === HttpStatus.SERVICE_UNAVAILABLE) res.setHeader('Retry-After', '5');
    const retryAfter = exception instanceof HttpException && (exception.getResponse() as { retryAfter?: number }).retryAfter;
    if (retryAfter) res.setHeader('Retry-After', String(retryAfter));
    res.status(body.statusCode).json(body);
  }

  /** The English sentences, with `messageKey`/`messageParams`/`errorKeys` where the thrower named them (refusal(), messageOption()). */
  private toBody(exception: unknown): ErrorBody {
    // Errors raised by Express's body parser (Nest wraps them, keeping the original as the cause).
    const parserError = (exception instanceof HttpException ? exception.cause : exception) as
      { type?: string; status?: number } | undefined;
    if (parserError?.type === 'entity.parse.failed') return keyed(400, 'error.malformedJson');
    if (parserError?.type === 'entity.too.large') return keyed(413, 'error.bodyTooLarge');
    if (parserError?.type === 'entity.too.deep') return keyed(400, 'error.bodyTooDeep');
    if (parserError?.type && typeof parserError.status === 'number' && parserError.status < 500) {
      return keyed(parserError.status, 'error.bodyUnreadable');
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const response = exception.getResponse();
      if (typeof response === 'string') return { statusCode: status, message: response };
      // Multer's refusal of a file over the size limit.
      if (status === HttpStatus.PAYLOAD_TOO_LARGE && exception.message === 'File too large') {
        return keyed(status, 'error.fileTooLarge', { mb: this.config.uploadMaxMb });
      }
      const r = response as {
        message?: unknown;
        errors?: Record<string, string>;
        messageKey?: unknown;
        messageParams?: MessageParams;
        errorKeys?: Record<string, unknown>;
      };
      const message = Array.isArray(r.message) ? r.message.join('; ') : String(r.message ?? exception.message);
      const body: ErrorBody = { statusCode: status, message };
      if (isMessageKey(r.messageKey)) {
        body.messageKey = r.messageKey;
        if (r.messageParams) body.messageParams = r.messageParams;
      }
      if (r.errors) body.errors = r.errors;
      if (r.errorKeys)
        body.errorKeys = Object.fromEntries(Object.entries(r.errorKeys).filter((e): e is [string, MessageRef] => isMessageRef(e[1])));
      // A login that needs its two-factor step: the challenge for POST /api/admin/login/totp.
      const twoFactor = response as { challenge?: unknown; challengeExpiresAt?: unknown };
      if (body.messageKey === 'error.twoFactorRequired' && typeof twoFactor.challenge === 'string') {
        Object.assign(body, { challenge: twoFactor.challenge, challengeExpiresAt: twoFactor.challengeExpiresAt });
      }
      return body;
    }
    const code = (exception as { driverError?: { code?: string } })?.driverError?.code;
    if (code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
      return keyed(409, 'error.duplicate');
    }
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn(`Database unavailable: ${(exception as Error).message}`);
      return keyed(503, 'error.databaseUnavailable');
    }
    this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    return keyed(500, 'error.server');
  }
}
