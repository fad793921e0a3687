import { z } from "zod";
import { flag, optionalText, optionalUrl } from "./env-fields";
import { vendorSettings } from "./env-vendors.server";
import { dropSingleton, singleton } from "./singleton.server";

// Every setting the app reads, with defaults that let a fresh clone run offline.
// `.env.example` lists the same names; keep the two in step.
const schema = z.object({
  NODE_ENV: z.preprocess((v) => v || undefined, z.enum(["development", "production", "test"]).default("development")),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  APP_URL: optionalUrl,
  SHARE_HOST: z.string().optional(),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: optionalUrl,
  // Connections each process keeps open to PostgreSQL.
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  EMBEDDED_POSTGRES_PORT: z.preprocess((v) => v || undefined, z.coerce.number().int().min(1).max(65535).optional()),
  // The PostgreSQL schema the job queue keeps its tables in. Processes that share it share jobs:
  // a web process and its workers must name the same one.
  JOB_QUEUE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,49}$/, "a lower-case PostgreSQL name: letters, digits and _")
    .default("pgboss"),
  // The PostgreSQL notification channel realtime messages travel between processes on (web
  // processes and workers of one deployment name the same one; see app/realtime/fan-out.server.ts).
  REALTIME_CHANNEL: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,39}$/, "a lower-case PostgreSQL name: letters, digits and _")
    .default("chorus_realtime"),
  SESSION_SECRET: z.string().min(32).optional(),
  TRUST_PROXY: flag,
  // Work background jobs in the web process too (the one-machine default); set false when
  // separate `npm run worker` processes do it.
  RUN_WORKER: z
    .enum(["true", "false", "1", "0", ""])
    .optional()
    .transform((v) => v !== "false" && v !== "0"),
  // The job queue (docs/decisions/006, 013): how often a worker looks, in one statement for all its
  // queues, for jobs due that no notification announced; retries of a failed job and the first
  // delay between them (doubling); the lease a running job holds, renewed by its worker's
  // heartbeat, and how often each worker looks for jobs whose lease lapsed (their worker died) to
  // run them again. A dead worker's job runs again within lease + sweep seconds.
  JOB_POLL_SECONDS: z.coerce.number().positive().default(2),
  JOB_RETRY_LIMIT: z.coerce.number().int().min(0).default(5),
  JOB_RETRY_DELAY_SECONDS: z.coerce.number().int().min(0).default(30),
  JOB_LEASE_SECONDS: z.coerce.number().int().min(5).default(20),
  JOB_HEARTBEAT_SECONDS: z.coerce.number().positive().default(5),
  JOB_SWEEP_SECONDS: z.coerce.number().positive().default(5),
  // Media processing lanes (docs/decisions/015): originals up to MEDIA_SMALL_MAX_BYTES (and every
  // photo) go to the fast lane, larger clips to the slow one; each lane works this many at a time
  // per worker process. A 1080p rendition's ffmpeg takes about 400 MB and every core it is given.
  MEDIA_SMALL_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(40 * 1024 ** 2),
  MEDIA_SMALL_CONCURRENCY: z.coerce.number().int().min(1).max(8).default(2),
  MEDIA_LARGE_CONCURRENCY: z.coerce.number().int().min(1).max(8).default(1),
  // Jobs that mostly wait on a mail server, Twilio or another service (invitations, reminders,
  // receipts...): how many of each such queue one worker process runs at a time (docs/decisions/032).
  JOB_MESSAGE_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(16),
  // Operations (docs/deploy.md): how long a stopping process (SIGTERM) lets requests, upload chunks
  // and jobs finish before it ends connections and hands the jobs back to the queue; the bearer
  // token /metrics asks for (unset: /metrics is open in development and refused elsewhere); the
  // request log as one JSON object per line (production's default) or as readable lines.
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(600).default(20),
  // A worker process (`npm run worker`) answers /healthz, /readyz and /metrics on this port when set.
  WORKER_PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65535)
    .optional()
    .or(z.literal("").transform(() => undefined)),
  METRICS_TOKEN: optionalText,
  LOG_FORMAT: z.preprocess((v) => v || undefined, z.enum(["json", "text"]).optional()),
  // Rendering (docs/rendering.md): ffmpeg jobs at a time per process; render each contribution's scene
  // as soon as it is ready (false: only when publishing); seconds without a heartbeat before a
  // render is taken for dead and taken up again.
  RENDER_CONCURRENCY: z.coerce.number().int().min(1).max(8).default(2),
  RENDER_AHEAD: z
    .enum(["true", "false", "1", "0", ""])
    .optional()
    .transform((v) => v !== "false" && v !== "0"),
  RENDER_STALL_SECONDS: z.coerce.number().positive().default(30),
  // Make each published version's HLS ladder for streaming (docs/decisions/036); false: the MP4 only.
  VIDEO_LADDER: z
    .enum(["true", "false", "1", "0", ""])
    .optional()
    .transform((v) => v !== "false" && v !== "0"),
  // How long after publishing a delivery waits for the version's ladder, so the recipient's first
  // play streams (docs/decisions/036); past it, the link goes out with the MP4 alone.
  DELIVERY_WAITS_FOR_STREAM_SECONDS: z.coerce.number().min(0).max(3600).default(900),
  // How long stills and title cards stay on screen in the video.
  RENDER_PHOTO_SECONDS: z.coerce.number().min(1).max(20).default(5),
  RENDER_TITLE_SECONDS: z.coerce.number().min(1).max(10).default(3.5),
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default("Chorus <hello@chorus.localhost>"),
  ADMIN_EMAIL: z
    .email()
    .optional()
    .or(z.literal("").transform(() => undefined)),
  ADMIN_PASSWORD: z.string().optional(),
  SENTRY_DSN: optionalUrl,
  // ffmpeg and ffprobe to run (app/media/ffmpeg-paths.server.ts); unset: the system's, else npm's.
  FFMPEG_PATH: optionalText,
  FFPROBE_PATH: optionalText,
  UNSPLASH_ACCESS_KEY: optionalText,
  UNSPLASH_API_URL: optionalUrl,
  S3_BUCKET: optionalText,
  S3_REGION: z.string().default("us-east-1"),
  S3_ENDPOINT: optionalUrl,
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: flag,
  // Upload limits (spec: shown to contributors before they upload).
  MAX_VIDEO_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(2 * 1024 ** 3),
  MAX_PHOTO_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(50 * 1024 ** 2),
  MAX_CLIP_SECONDS: z.coerce.number().positive().default(600),
  MAX_EVENT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(20 * 1024 ** 3),
  MAX_EVENT_FILES: z.coerce.number().int().positive().default(500),
  // An organiser's own music tracks: largest file and longest track accepted.
  MAX_TRACK_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(50 * 1024 ** 2),
  MAX_TRACK_SECONDS: z.coerce
    .number()
    .positive()
    .default(15 * 60),
  // A resumable upload untouched this long is removed (the uploads-expire sweep, hourly).
  UPLOAD_EXPIRY_HOURS: z.coerce.number().positive().default(48),
  // How often a web process records complete uploads left without their media row (a process that
  // died after the last byte); it takes those whose last byte arrived at least two sweeps ago.
  UPLOAD_FINISH_SWEEP_SECONDS: z.coerce.number().positive().default(60),
  // A rendered piece no render has used for this long is removed (the render-pieces-sweep, daily).
  RENDER_PIECE_RETENTION_DAYS: z.coerce.number().positive().default(30),
  // The vendors the app talks to, each with a local stand-in when its key is unset.
  ...vendorSettings,
  DEFAULT_PHONE_COUNTRY: z.string().length(2).default("US"),
  MAIN_SITE_URL: z.url().default("https://www.chorus.video"),
  PRICING_URL: z.string().default("https://www.chorus.video/pricing"),
  HELP_URL: z.string().default("https://help.chorus.video"),
  FAQ_URL: z.string().default("https://help.chorus.video/faq"),
  PRIVACY_URL: z.string().default("https://www.chorus.video/privacy"),
  TERMS_URL: z.string().default("https://www.chorus.video/terms"),
  ADMIN_URL: z.string().default("/admin"),
  LOGIN_LIMIT_PER_IP: z.coerce.number().int().positive().default(30),
  // Wrong passwords for one account from one address before that address must wait; past as many
  // from everywhere, every log-in to the account is slowed by LOGIN_SLOWDOWN_MS more per failure
  // (at most LOGIN_SLOWDOWN_MAX_MS) but never refused, so guessing cannot lock the owner out.
  LOGIN_LIMIT_PER_ACCOUNT: z.coerce.number().int().positive().default(10),
  LOGIN_SLOWDOWN_MS: z.coerce.number().int().min(0).default(500),
  LOGIN_SLOWDOWN_MAX_MS: z.coerce.number().int().min(0).default(8000),
  RESET_LIMIT_PER_IP: z.coerce.number().int().positive().default(10),
  RESET_LIMIT_PER_ACCOUNT: z.coerce.number().int().positive().default(3),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(15 * 60),
});

/** The name of every setting, as `.env.example` lists them. */
export const SETTING_NAMES = Object.keys(schema.shape);

export type Env = z.infer<typeof schema> & { APP_URL: string; SHARE_HOST: string };

// Cached on globalThis (see singleton.server.ts) so the server entry and the Remix
// build read the same settings, and a test can change them for both at once.
export function env(): Env {
  return singleton("env", readEnv);
}

function readEnv(): Env {
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid settings in the environment:\n${problems}`);
  }
  if (parsed.data.JOB_HEARTBEAT_SECONDS * 2 > parsed.data.JOB_LEASE_SECONDS) {
    // One late heartbeat must not cost a running job its lease.
    throw new Error("Invalid settings in the environment:\n  JOB_HEARTBEAT_SECONDS: at most half of JOB_LEASE_SECONDS");
  }
  if (parsed.data.STRIPE_SECRET_KEY && !parsed.data.STRIPE_WEBHOOK_SECRET) {
    // Without it no payment would ever be confirmed: every webhook would be refused.
    throw new Error("Invalid settings in the environment:\n  STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY");
  }
  for (const vendor of ["ACUTRACK", "HEIRLOOM"] as const) {
    if (parsed.data[`${vendor}_API_KEY`] && !parsed.data[`${vendor}_API_URL`]) {
      throw new Error(`Invalid settings in the environment:\n  ${vendor}_API_URL: required with ${vendor}_API_KEY`);
    }
  }
  const appUrl = parsed.data.APP_URL ?? `http://localhost:${parsed.data.PORT || 3000}`;
  const shareHost = parsed.data.SHARE_HOST ?? new URL(appUrl).host;
  return { ...parsed.data, APP_URL: appUrl.replace(/\/$/, ""), SHARE_HOST: shareHost };
}

/** For tests that change settings: settings and everything built from them are read again. */
export function resetEnvCache() {
  for (const name of [
    "env",
    "mailProvider",
    "smsProvider",
    "phoneLookupProvider",
    "sessionSecrets",
    "sessionStorage",
    "toastStorage",
    "startDraftStorage",
    "storage",
    "stockPhotos",
    "paymentsProvider",
    "localPaymentKeys",
    "checkoutCookie",
    "giftCardProvider",
    "treePlantingProvider",
    "printMailProvider",
  ])
    dropSingleton(name);
}

export const isProduction = () => env().NODE_ENV === "production";

/**
 * Cookies are marked Secure when the app is served over https. Over plain http (a fresh clone's
 * `npm start` on http://localhost, or a phone on the LAN) a Secure cookie would never come back.
 */
export const secureCookies = () => env().APP_URL.startsWith("https:");
