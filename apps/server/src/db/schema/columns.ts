import { sql } from 'drizzle-orm';
import { customType, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Columns every table spells the same way, written once (the SQL they make is unchanged). */
export const uuidPrimaryKey = () => uuid('id').primaryKey().defaultRandom();
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
/** A point in time, with its time zone. */
export const instant = (name: string) => timestamp(name, { withTimezone: true });

/** A constant list for `in (…)` checks, from the shared vocabulary (so the database allows what the rules say). */
export const sqlList = (values: readonly string[]) => sql.raw(`(${values.map((v) => `'${v}'`).join(', ')})`);

/** Bytes (profile photos, organisation logos), read back as a Buffer from either database driver. */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});
