import { createHash } from "node:crypto";

/** Hex SHA-256 of a string: the keys render pieces are cached under. */
export const sha256Hex = (text: string) => createHash("sha256").update(text).digest("hex");
