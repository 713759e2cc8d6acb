import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Reading settings from environment variables, the same way in every process (admin-api's
 * config, the builder, `npm start`): blank means unset, every bad value is collected (so all of
 * them are reported at once, by name), and secrets may come from files.
 */
export type Env = Record<string, string | undefined>;

export interface EnvReaderOptions {
  /** Where relative file names are resolved (default: the process's working directory). */
  cwd?: string;
  /**
   * Variables that may instead be given as NAME_FILE, naming a file that holds the value (Docker and
   * Kubernetes secrets). One trailing newline is dropped; setting both forms is refused.
   */
  fileVariables?: readonly string[];
}

export class EnvReader {
  /** One sentence per bad variable, naming it. */
  readonly problems: string[] = [];
  private readonly env: Env;

  constructor(env: Env, options: EnvReaderOptions = {}) {
    this.env = { ...env };
    const cwd = options.cwd ?? process.cwd();
    for (const name of options.fileVariables ?? []) {
      const file = this.env[`${name}_FILE`]?.trim();
      if (!file) continue;
      if (this.env[name]?.trim()) {
        this.problems.push(`${name} and ${name}_FILE are both set; set only one`);
        continue;
      }
      try {
        this.env[name] = readFileSync(path.resolve(cwd, file), 'utf8').replace(/\r?\n$/, '');
      } catch (error) {
        this.problems.push(`${name}_FILE names a file that cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}: ${file})`);
      }
    }
  }

  /** The raw value as given (after NAME_FILE), untrimmed; undefined when unset. */
  raw(name: string): string | undefined {
    return this.env[name];
  }

  /** The trimmed value; undefined when unset or blank. */
  str(name: string): string | undefined {
    const v = this.env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const raw = this.str(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      this.problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return n;
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.str(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    this.problems.push(`${name} must be true or false (got "${this.env[name]}")`);
    return fallback;
  }

  oneOf<T extends string>(name: string, fallback: T, allowed: readonly T[]): T {
    const raw = (this.str(name)?.toLowerCase() ?? fallback) as T;
    if (allowed.includes(raw)) return raw;
    this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
    return fallback;
  }

  /** A URL with one of the given protocols ('http:', 'https:', …); null when unset or bad. */
  url(name: string, protocols: readonly string[]): string | null {
    const raw = this.str(name);
    if (raw === undefined) return null;
    try {
      if (!protocols.includes(new URL(raw).protocol)) throw new Error('protocol');
      return raw;
    } catch {
      this.problems.push(`${name} must be a ${protocols.map((p) => p.replace(':', '://')).join(' or ')} URL`);
      return null;
    }
  }
}
