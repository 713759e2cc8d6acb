import type { LoggerService, LogLevel } from '@nestjs/common';

/**
 * LOG_FORMAT=json: one JSON object per line on stdout (errors and warnings on stderr) with time,
 * level, context and message, plus the fields of a request line (method, path, route, status,
 * durationMs) when the message is an object, for log collectors (Loki, CloudWatch, ELK).
 */
export class JsonLogger implements LoggerService {
  log(message: unknown, ...rest: unknown[]) {
    this.write('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]) {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]) {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]) {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]) {
    this.write('verbose', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]) {
    this.write('fatal', message, rest);
  }
  setLogLevels(_levels: LogLevel[]) {}

  private write(level: string, message: unknown, rest: unknown[]) {
    // Nest passes (message, context) or, for errors, (message, stack, context).
    const strings = rest.filter((r): r is string => typeof r === 'string');
    const context = strings.length ? strings[strings.length - 1] : undefined;
    const stack = level === 'error' && strings.length > 1 ? strings[0] : undefined;
    const fields =
      message && typeof message === 'object' && !(message instanceof Error)
        ? (message as Record<string, unknown>)
        : { message: message instanceof Error ? message.message : String(message) };
    const line = JSON.stringify({
      time: new Date().toISOString(),
      level,
      ...(context ? { context } : {}),
      ...fields,
      ...(stack ? { stack } : {}),
    });
    (level === 'error' || level === 'warn' || level === 'fatal' ? process.stderr : process.stdout).write(`${line}\n`);
  }
}
