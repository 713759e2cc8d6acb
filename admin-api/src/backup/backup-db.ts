import { readFileSync } from 'node:fs';

import type { DataSource } from 'typeorm';

export const databaseKind = (dataSource: DataSource): 'sqlite' | 'mysql' => (dataSource.options.type === 'mysql' ? 'mysql' : 'sqlite');

/** The names of the migrations the database has run, oldest first ([] when it has none). */
export async function appliedMigrations(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  try {
    if (!(await runner.hasTable('migrations'))) return [];
    const rows = (await runner.query('SELECT name FROM migrations ORDER BY id')) as { name: string }[];
    return rows.map((r) => r.name);
  } finally {
    await runner.release();
  }
}

let version: string | undefined;
/** The API's version (admin-api/package.json), recorded in every manifest. */
export function appVersion(): string {
  if (version) return version;
  try {
    // dist/src/backup/ → admin-api/package.json
    version = String(
      (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? 'unknown',
    );
  } catch {
    version = 'unknown';
  }
  return version;
}
