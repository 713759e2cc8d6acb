import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Inject, Logger } from '@nestjs/common';
import type { ErrorBody } from '@portfolio/contract/types';
import type { Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../config/config.js';

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

  private toBody(exception: unknown): ErrorBody {
    // Errors raised by Express's body parser (Nest wraps them, keeping the original as the cause).
    const parserError = (exception instanceof HttpException ? exception.cause : exception) as { type?: string; status?: number } | undefined;
    if (parserError?.type === 'entity.parse.failed') return { statusCode: 400, message: 'Malformed JSON body' };
    if (parserError?.type === 'entity.too.large') return { statusCode: 413, message: 'Request body is too large' };
    if (parserError?.type === 'entity.too.deep') return { statusCode: 400, message: 'The request body is nested too deeply' };
    if (parserError?.type && typeof parserError.status === 'number' && parserError.status < 500) {
      return { statusCode: parserError.status, message: 'The request body could not be read' };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const response = exception.getResponse();
      if (typeof response === 'string') return { statusCode: status, message: response };
      if (status === HttpStatus.PAYLOAD_TOO_LARGE && exception.message === 'File too large') {
        return { statusCode: status, message: `This file is too large. The limit is ${this.config.uploadMaxMb} MB.` };
      }
      const r = response as { message?: unknown; errors?: Record<string, string> };
      const message = Array.isArray(r.message) ? r.message.join('; ') : String(r.message ?? exception.message);
      return { statusCode: status, message, ...(r.errors ? { errors: r.errors } : {}) };
    }
    const code = (exception as { driverError?: { code?: string } })?.driverError?.code;
    if (code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
      return { statusCode: 409, message: 'This record already exists' };
    }
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn(`Database unavailable: ${(exception as Error).message}`);
      return { statusCode: 503, message: 'The database is unavailable right now. Please try again in a moment.' };
    }
    this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    return { statusCode: 500, message: 'Something went wrong on the server. Please try again.' };
  }
}
