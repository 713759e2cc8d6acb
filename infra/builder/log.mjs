// The builder's log lines: `[builder] …` text, or with LOG_FORMAT=json one object per line in the
// API's shape ({time, level, context, message}; failures as errors on stderr), for log collectors.

/** A log function for `format` ('text' | 'json'). */
export function makeLog(format, { out = process.stdout, err = process.stderr, now = () => new Date() } = {}) {
  if (format !== 'json') return (line) => out.write(`[builder] ${line}\n`);
  return (line) => {
    const failed = /\bFAILED\b/.test(line);
    (failed ? err : out).write(
      `${JSON.stringify({ time: now().toISOString(), level: failed ? 'error' : 'info', context: 'builder', message: String(line) })}\n`,
    );
  };
}
