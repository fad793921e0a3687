import crypto from "node:crypto";

/** 256 random bits, URL-safe: for session ids and links sent by e-mail. */
export const randomToken = () => crypto.randomBytes(32).toString("base64url");

/** What we keep of a token: its SHA-256, so a leaked table holds no usable link. */
export const hashToken = (token: string) => crypto.createHash("sha256").update(token).digest("hex");
