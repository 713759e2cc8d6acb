import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { CONTENT_KINDS } from '@portfolio/contract/kinds';
import type { TableColumn } from 'typeorm';

import { contentTable } from '../src/database/content-table.js';
import { type Api, startApi } from './support/harness.js';

let api: Api;
before(async () => {
  api = await startApi();
});
after(() => api.close());

const shape = (column: TableColumn) => {
  const { type, length, isNullable, default: dflt, precision, isPrimary, isGenerated, generationStrategy } = column;
  return { type, length, isNullable, default: dflt, precision, isPrimary, isGenerated, generationStrategy };
};

describe("contentTable (a new kind's migration): the columns every kind's table has", () => {
  for (const kind of CONTENT_KINDS) {
    it(`the migrated '${kind}' table has each column contentTable makes for it, of the same type`, async () => {
      const qr = api.dataSource.createQueryRunner();
      const probe = `probe_${kind}`;
      try {
        await qr.createTable(contentTable(qr, kind, [], [], probe));
        const made = (await qr.getTable(probe))!;
        const real = (await qr.getTable(kind))!;
        assert.ok(made.columns.some((column) => column.name === 'translations'));
        for (const column of made.columns) {
          const actual = real.findColumnByName(column.name);
          assert.ok(actual, `the ${kind} table has no ${column.name}`);
          assert.deepEqual(shape(actual), shape(column), `${kind}.${column.name}`);
        }
      } finally {
        await qr.dropTable(probe, true);
        await qr.release();
      }
    });
  }
});
