import { createConnection } from 'mysql2/promise';

import type { AppConfig } from '../config/config.js';

/** Errors that waiting will not mend: the operator must change a setting. */
const FATAL: Record<string, (db: MysqlSettings) => string> = {
  ER_ACCESS_DENIED_ERROR: (db) =>
    `MySQL refused user "${db.user}": check DATABASE_USER and DATABASE_PASSWORD (or the user and password in DATABASE_URL)`,
  ER_DBACCESS_DENIED_ERROR: (db) =>
    `MySQL user "${db.user}" may not use database "${db.database}": grant it access, or check DATABASE_NAME`,
  ER_BAD_DB_ERROR: (db) =>
    `MySQL has no database "${db.database}": create it (CREATE DATABASE \`${db.database}\` CHARACTER SET utf8mb4) or check DATABASE_NAME`,
  ENOTFOUND: (db) => `The database host "${db.host}" is not known: check DATABASE_HOST (or the host in DATABASE_URL)`,
};

type MysqlSettings = Extract<AppConfig['database'], { kind: 'mysql' }>;

export class DatabaseUnreachableError extends Error {}

/**
 * Before the API starts: waits until MySQL accepts a connection (it may still be starting, as in
 * docker compose), saying once that it waits; stops with one line naming what to fix when the
 * settings are wrong or the database stays unreachable.
 */
export async function waitForDatabase(
  config: AppConfig,
  { timeoutMs = 60_000, say = (line: string) => process.stdout.write(`${line}\n`) } = {},
) {
  if (config.database.kind !== 'mysql') return;
  const db = config.database;
  const where = `${db.host}:${db.port}`;
  const deadline = Date.now() + timeoutMs;
  let announced = false;
  for (;;) {
    let code: string;
    try {
      const conn = await createConnection({
        host: db.host,
        port: db.port,
        user: db.user,
        password: db.password,
        database: db.database,
        connectTimeout: 5000,
      });
      await conn.end();
      return;
    } catch (error) {
      code = (error as { code?: string }).code ?? (error as Error).message;
    }
    if (FATAL[code]) throw new DatabaseUnreachableError(FATAL[code](db));
    if (Date.now() >= deadline) {
      throw new DatabaseUnreachableError(
        `Cannot reach the MySQL database at ${where} (${code}) after ${Math.round(timeoutMs / 1000)} s: start it, or check DATABASE_HOST and DATABASE_PORT (or DATABASE_URL)`,
      );
    }
    if (!announced) {
      announced = true;
      say(`Waiting for the MySQL database at ${where} (${code})…`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
