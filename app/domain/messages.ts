// User-facing messages fixed by the spec's error catalogue (§8). The spellings are the spec's own.
export const LOGGED_OUT_TOAST = { type: "success", title: "Success", description: "You have been logged out!" } as const;
export const LOGOUT_FAILED_TOAST = { type: "error", title: "Error", description: "An error occured while signing out." } as const;
export const REPORT_SENT_TOAST = {
  type: "success",
  title: "Submitted, thank you!",
  description: "Thank you, we'll review this page.",
} as const;
export const REPORT_FAILED_TOAST = { type: "error", title: "An error occured." } as const;
