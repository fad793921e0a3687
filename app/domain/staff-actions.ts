import type { StaffActionKind } from "drizzle/schema";

/** Every kind of staff action, in the words the audit log shows them with. */
export const STAFF_ACTION_WORDS: Record<StaffActionKind, string> = {
  refund_requested: "Refund requested",
  promo_code_created: "Code created",
  promo_code_paused: "Code paused",
  promo_code_resumed: "Code resumed",
  reports_dismissed: "Reports dismissed",
  event_taken_down: "Chorus taken down",
  event_restored: "Chorus restored",
  announcement_created: "Announcement created",
  announcement_ended: "Announcement ended",
  impersonation_started: "Impersonation started",
  role_changed: "Role changed",
  verification_resent: "Confirmation e-mail sent again",
  account_disabled: "Account disabled",
  account_enabled: "Account enabled",
  render_retried: "Render tried again",
  mail_order_retried: "Posted order tried again",
  mail_order_refunded: "Posted order refunded",
};

export const STAFF_ACTION_KINDS = Object.keys(STAFF_ACTION_WORDS) as StaffActionKind[];

export const isStaffActionKind = (value: string): value is StaffActionKind => Object.hasOwn(STAFF_ACTION_WORDS, value);
