/**
 * A serialization failure on demand, for tests of work that `transact` may run more than once on PostgreSQL: the
 * next `times` inserts into a table fail with SQLSTATE 40001, as a concurrent transaction's conflict would make them
 * fail, so the transaction is rolled back and its work run again. A trigger raises it, counting on a sequence (a
 * sequence is not rolled back with the transaction). SQLite never runs work twice: there the fault is a no-op.
 */
import { getTableName, sql, type Table } from "drizzle-orm";
import { rawRow, rawRows, type Db } from "../../../app/server/db.server.ts";
import { dialectOf } from "../../../app/server/db-dialect.server.ts";

export interface SerializationFault {
  /** How many serialization failures were raised so far (0 on SQLite). */
  raised(): Promise<number>;
}

let faults = 0;

export async function failInserts(db: Db, table: Table, times = 1): Promise<SerializationFault> {
  if (dialectOf(db) !== "postgres") return { raised: async () => 0 };
  const name = `socrates_fault_${++faults}`;
  const target = getTableName(table);
  await rawRows(db, sql.raw(`CREATE SEQUENCE ${name}`));
  await rawRows(
    db,
    sql.raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF nextval('${name}') <= ${times} THEN
          RAISE EXCEPTION 'injected serialization failure on ${target}' USING ERRCODE = 'serialization_failure';
        END IF;
        RETURN NEW;
      END $$`),
  );
  await rawRows(
    db,
    sql.raw(`CREATE TRIGGER ${name} BEFORE INSERT ON "${target}" FOR EACH ROW EXECUTE FUNCTION ${name}()`),
  );
  return {
    async raised() {
      const row = await rawRow<{ last_value: string; is_called: boolean }>(
        db,
        sql.raw(`SELECT last_value, is_called FROM ${name}`),
      );
      return row?.is_called ? Math.min(Number(row.last_value), times) : 0;
    },
  };
}
