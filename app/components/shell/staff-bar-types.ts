/** The admin tools bar's content (app/services/staff/staff-bar.server.ts makes it). */
export interface StaffBar {
  admin: boolean;
  /** The e-mail of the account an admin is acting as, or null. */
  actingAs: string | null;
  /** The Chorus whose page this is, when it is one. */
  chorus: {
    title: string;
    consoleHref: string;
    organiserHref: string | null;
    paid: boolean;
    deleted: boolean;
    renders: number;
    latestRender: string | null;
  } | null;
}

/** The developer tools bar's content, under `npm run dev` only (app/services/staff/developer-bar.server.ts). */
export interface DeveloperBar {
  /** When the server build was last made, ISO. */
  builtAt: string | null;
  /** Where PostgreSQL is, without credentials. */
  database: string;
  outboxMessages: number;
  queue: { waiting: number; active: number; failedLastDay: number };
}
