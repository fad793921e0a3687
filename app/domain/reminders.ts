/**
 * Automatic reminders to invitees who have not contributed yet: three days and
 * one day before the deadline. A window is due once its moment has passed and the
 * deadline has not.
 */
export const REMINDER_WINDOWS = [
  { name: "3d", beforeDeadlineMs: 3 * 24 * 60 * 60 * 1000 },
  { name: "1d", beforeDeadlineMs: 24 * 60 * 60 * 1000 },
] as const;

export type ReminderWindow = (typeof REMINDER_WINDOWS)[number]["name"];

export interface ReminderCandidate {
  deadline: Date;
  /** When this invitee was first invited: no reminder on the heels of the invitation. */
  invitedAt: Date;
}

const MIN_GAP_AFTER_INVITE_MS = 12 * 60 * 60 * 1000;

/** The one reminder to send now, if any: the latest window that is due (an earlier missed one is skipped). */
export function dueReminder({ deadline, invitedAt }: ReminderCandidate, now: Date, alreadySent: readonly string[]): ReminderWindow | null {
  if (now >= deadline) return null;
  if (now.getTime() - invitedAt.getTime() < MIN_GAP_AFTER_INVITE_MS) return null;
  const due = REMINDER_WINDOWS.filter((w) => now.getTime() >= deadline.getTime() - w.beforeDeadlineMs);
  const latest = due[due.length - 1];
  if (!latest || alreadySent.includes(latest.name)) return null;
  // Once the 1-day reminder went out, the 3-day one is never sent late.
  const laterSent = REMINDER_WINDOWS.slice(REMINDER_WINDOWS.indexOf(latest) + 1).some((w) => alreadySent.includes(w.name));
  return laterSent ? null : latest.name;
}
