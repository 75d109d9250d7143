/**
 * Loading millions of rows is far faster into tables without indexes and foreign keys, so the
 * generator takes them off the tables it fills and puts the very same ones back afterwards:
 * their definitions are read from the migrated database (pg_get_indexdef,
 * pg_get_constraintdef), so the result is the app's schema exactly. Putting a primary key or
 * unique index back checks every row, and foreign keys are added NOT VALID and then
 * validated, so PostgreSQL itself proves the loaded rows keep every key and reference.
 */
import type { Sql } from "postgres";

export interface TableKeys {
  table: string;
  /** Primary-key and unique constraints: `alter table … add constraint …`. */
  constraints: { name: string; definition: string }[];
  /** Other indexes (unique ones included): `create index …` as pg_get_indexdef writes it. */
  indexes: { name: string; definition: string }[];
}

export interface SchemaKeys {
  tables: TableKeys[];
  /** Foreign keys from or to the tables: on `table`. */
  foreignKeys: { table: string; name: string; definition: string }[];
}

/** Reads the keys, indexes and foreign keys of `tables` (and foreign keys into them). */
export async function readKeys(sql: Sql, tables: readonly string[]): Promise<SchemaKeys> {
  const constraints = await sql<{ table: string; name: string; definition: string; type: string; index: string | null }[]>`
    select c.conrelid::regclass::text as table, c.conname as name, pg_get_constraintdef(c.oid) as definition,
           c.contype as type, c.conindid::regclass::text as index
    from pg_constraint c
    where c.contype in ('p', 'u', 'f') and c.connamespace = 'public'::regnamespace
      and (c.conrelid::regclass::text = any(${tables as string[]}) or (c.contype = 'f' and c.confrelid::regclass::text = any(${tables as string[]})))
    order by c.conrelid::regclass::text, c.conname`;
  const indexes = await sql<{ table: string; name: string; definition: string }[]>`
    select tablename as table, indexname as name, indexdef as definition
    from pg_indexes
    where schemaname = 'public' and tablename = any(${tables as string[]})
    order by tablename, indexname`;
  const constraintIndexes = new Set(constraints.filter((c) => c.type !== "f").map((c) => c.index));
  return {
    tables: tables.map((table) => ({
      table,
      constraints: constraints.filter((c) => c.table === table && c.type !== "f").map(({ name, definition }) => ({ name, definition })),
      indexes: indexes.filter((i) => i.table === table && !constraintIndexes.has(i.name)).map(({ name, definition }) => ({ name, definition })),
    })),
    foreignKeys: constraints.filter((c) => c.type === "f").map(({ table, name, definition }) => ({ table, name, definition })),
  };
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Drops the foreign keys, then the keys and indexes of every table. */
export async function dropKeys(sql: Sql, keys: SchemaKeys): Promise<void> {
  for (const fk of keys.foreignKeys) await sql.unsafe(`alter table ${ident(fk.table)} drop constraint ${ident(fk.name)}`);
  for (const table of keys.tables) {
    for (const constraint of table.constraints) await sql.unsafe(`alter table ${ident(table.table)} drop constraint ${ident(constraint.name)}`);
    for (const index of table.indexes) await sql.unsafe(`drop index ${ident(index.name)}`);
  }
}

/** The statements that put a table's keys and indexes back (keys first: foreign keys need them). */
export function restoreTableStatements(table: TableKeys): string[] {
  return [
    ...table.constraints.map((c) => `alter table ${ident(table.table)} add constraint ${ident(c.name)} ${c.definition}`),
    ...table.indexes.map((i) => i.definition),
  ];
}

/** Adds a foreign key without checking (instant), to be checked by validateForeignKey. */
export const addForeignKeyStatement = (fk: SchemaKeys["foreignKeys"][number]) =>
  `alter table ${ident(fk.table)} add constraint ${ident(fk.name)} ${fk.definition} not valid`;

/** Checks every row against the foreign key; throws if one has no referenced row. */
export const validateForeignKeyStatement = (fk: SchemaKeys["foreignKeys"][number]) =>
  `alter table ${ident(fk.table)} validate constraint ${ident(fk.name)}`;
