import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

import { routePattern } from '../common/metrics.js';

const logger = new Logger('HTTP');

/**
 * One line per request: method, path (never the query string, which may carry secrets), status,
 * time. With LOG_FORMAT=json the same as fields, plus the route pattern and the client address.
 */
export function requestLogger(format: 'text' | 'json' = 'text') {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const path = (req.originalUrl ?? req.url).split('?')[0];
      const message = `${req.method} ${path} ${res.statusCode} ${ms.toFixed(1)}ms`;
      if (format === 'text') return logger.log(message);
      logger.log({
        message,
        method: req.method,
        path,
        route: routePattern(req, res),
        status: res.statusCode,
        durationMs: Math.round(ms * 10) / 10,
        ip: req.ip,
      });
    });
    next();
  };
}
