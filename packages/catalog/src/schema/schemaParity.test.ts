import { getTableConfig } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import { catalogSchema } from './index.js';
import { memoryCatalog } from '../../test/helpers.js';

describe('drizzle schema mirrors the migrations', () => {
  const catalog = memoryCatalog();
  const db = catalog.database;

  for (const table of Object.values(catalogSchema)) {
    const config = getTableConfig(table);
    it(`${config.name}: same columns, nullability and indexes`, () => {
      const sqlColumns = db.prepare(`PRAGMA table_info(${config.name})`).all() as Array<{
        name: string;
        notnull: number;
        pk: number;
      }>;
      expect(sqlColumns.length).toBeGreaterThan(0);
      expect(config.columns.map((c) => c.name).sort()).toEqual(sqlColumns.map((c) => c.name).sort());
      for (const column of config.columns) {
        const sql = sqlColumns.find((c) => c.name === column.name);
        expect({ column: column.name, notNull: column.notNull }).toEqual({
          column: column.name,
          notNull: sql?.notnull === 1 || (sql?.pk === 1 && column.notNull),
        });
      }
      const sqlIndexes = (
        db.prepare(`PRAGMA index_list(${config.name})`).all() as Array<{ name: string; origin: string }>
      )
        .filter((i) => i.origin === 'c')
        .map((i) => i.name);
      for (const name of sqlIndexes) expect(config.indexes.map((i) => i.config.name)).toContain(name);
    });
  }

  it('every table of the migrations has a drizzle table', () => {
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{
        name: string;
      }>
    )
      .map((t) => t.name)
      .filter((n) => n !== 'schema_migrations');
    expect(tables.sort()).toEqual(
      Object.values(catalogSchema)
        .map((t) => getTableConfig(t).name)
        .sort(),
    );
  });
});
