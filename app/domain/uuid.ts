/** A UUID in its usual written form (any version, either case): how our ids are written. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is written as a UUID: an id that is not names nothing of ours, and must not reach SQL. */
export const isUuid = (value: unknown): value is string => typeof value === "string" && UUID.test(value);
