import { bigserial, customType, index, pgTable, timestamp } from "drizzle-orm/pg-core";

const bytea = customType<{ data: Buffer }>({ dataType: () => "bytea" });

// Realtime messages between processes go by PostgreSQL NOTIFY (socket.io's PostgreSQL adapter,
// app/realtime/fan-out.server.ts). One too large for a notification (8000 bytes) is kept here and
// only its id is notified; the adapter deletes rows older than half a minute.
export const realtimeAttachments = pgTable(
  "realtime_attachments",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    payload: bytea().notNull(),
  },
  (table) => [index("realtime_attachments_created_at_idx").on(table.createdAt)],
);
