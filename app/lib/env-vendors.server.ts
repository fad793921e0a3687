import { z } from "zod";
import { optionalText, optionalUrl } from "./env-fields";

// The settings of the vendors the app talks to (texts, payments, gift cards, trees, postcards, posted
// orders): each has a local stand-in inside the app when its key is unset, so a fresh clone runs
// offline. Part of the one environment schema (env.server.ts), kept apart so that schema reads as the
// app's own settings.

export const vendorSettings = {
  TWILIO_ACCOUNT_SID: optionalText,
  TWILIO_AUTH_TOKEN: optionalText,
  TWILIO_FROM_NUMBER: optionalText,
  // Card payments (docs/decisions/019-payments.md): Stripe's secret key and the signing secret of
  // our webhook endpoint. Unset: a local payment service inside the app takes payments with test
  // cards, through the same code.
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  // Where the Stripe SDK sends its requests (only tests change these: a stand-in server).
  STRIPE_API_HOST: optionalText,
  STRIPE_API_PORT: z.coerce
    .number()
    .int()
    .min(1)
    .max(65535)
    .optional()
    .or(z.literal("").transform(() => undefined)),
  STRIPE_API_PROTOCOL: z
    .enum(["http", "https", ""])
    .optional()
    .transform((v) => v || undefined),
  // Seconds a call to the payment service may take, and how often the SDK tries again (same
  // idempotency key) after a network failure or a 5xx before the payer is told to retry.
  STRIPE_TIMEOUT_SECONDS: z.coerce.number().positive().default(20),
  STRIPE_NETWORK_RETRIES: z.coerce.number().int().min(0).max(5).default(2),
  // How long a payment page stays open before it expires unpaid and what it locked is let go (24 h,
  // Stripe's longest; Stripe takes no less than 30 minutes, the local service any number, for tests).
  CHECKOUT_EXPIRY_SECONDS: z.coerce.number().int().min(1).max(86_400).default(86_400),
  // Group gift cards (docs/decisions/023-group-gift-cards.md): Tremendous's API key, and the funding
  // source its orders are paid from. Unset: a local gift-card vendor inside the app, with a small
  // catalogue and a claim page, delivering each order after LOCAL_GIFT_CARD_DELIVERY_SECONDS.
  TREMENDOUS_API_KEY: optionalText,
  // Tremendous's production API unless set (https://testflight.tremendous.com/api/v2 is its sandbox).
  TREMENDOUS_API_URL: optionalUrl,
  TREMENDOUS_FUNDING_SOURCE_ID: z.string().min(1).default("balance"),
  TREMENDOUS_TIMEOUT_SECONDS: z.coerce.number().positive().default(20),
  LOCAL_GIFT_CARD_DELIVERY_SECONDS: z.coerce.number().min(0).default(5),
  // Trees in the recipient's honour (docs/decisions/028-trees-and-the-live-pot.md): the planting
  // vendor's API key and enterprise. Unset: a local vendor that plants in TREES_PROJECT_ID only.
  TREES_API_KEY: optionalText,
  TREES_API_URL: z.url().default("https://api.digitalhumani.com"),
  TREES_ENTERPRISE_ID: z.string().default(""),
  TREES_PROJECT_ID: z.string().min(1).max(100).default("chorus-forest"),
  TREES_TIMEOUT_SECONDS: z.coerce.number().positive().default(20),
  // Printed postcards (docs/decisions/030-postcards.md): Lob's API key. Unset: a local print service
  // inside the app that moves each card created → printed → mailed → delivered, one step every
  // LOCAL_POSTCARD_STEP_SECONDS. The price of one card, posted anywhere we serve, in minor units.
  LOB_API_KEY: optionalText,
  LOB_API_URL: optionalUrl,
  // The secret Lob signs its webhooks with (its dashboard shows it); unset, the webhook route refuses
  // every event. A card not final and not heard of for POSTCARD_REFRESH_HOURS is asked about again.
  LOB_WEBHOOK_SECRET: optionalText,
  POSTCARD_REFRESH_HOURS: z.coerce.number().positive().default(6),
  LOB_TIMEOUT_SECONDS: z.coerce.number().positive().default(20),
  LOCAL_POSTCARD_STEP_SECONDS: z.coerce.number().min(0).default(20),
  POSTCARD_PRICE: z.coerce.number().int().min(0).default(499),
  POSTCARD_CURRENCY: z
    .string()
    .regex(/^[a-z]{3}$/)
    .default("usd"),
  // The return address printed for cards posted abroad (the print service requires one).
  POSTCARD_RETURN_NAME: z.string().min(1).default("Chorus"),
  POSTCARD_RETURN_LINE1: z.string().min(1).default("210 King Street"),
  POSTCARD_RETURN_CITY: z.string().min(1).default("San Francisco"),
  POSTCARD_RETURN_REGION: z.string().min(1).default("CA"),
  POSTCARD_RETURN_POSTAL_CODE: z.string().min(1).default("94107"),
  // DVDs and photo books by post (docs/decisions/029-dvds-and-keepsakes-by-post.md): each service's
  // API key and address. Unset keys: local services inside the app that take every order, print it
  // after LOCAL_FULFILMENT_STEP_SECONDS and ship it with a tracking number after twice that.
  ACUTRACK_API_KEY: optionalText,
  ACUTRACK_API_URL: optionalUrl,
  HEIRLOOM_API_KEY: optionalText,
  HEIRLOOM_API_URL: optionalUrl,
  FULFILMENT_TIMEOUT_SECONDS: z.coerce.number().positive().default(20),
  LOCAL_FULFILMENT_STEP_SECONDS: z.coerce.number().min(0).default(30),
};
