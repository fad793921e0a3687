import { useState } from "react";
import type * as tus from "tus-js-client";

/** Where an upload goes and what goes up with it. */
export interface UploadContext {
  eventUuid: string;
  purpose: "contribution" | "thank_you";
  contributorName: string;
  caption: string;
  invite?: string;
  privateKey?: string;
  /** A photo larger than this on its longest side is shrunk before it is sent (contribution-form.tsx says so). */
  photoMaxEdge: number;
}

/** What the form says when a file is sent: its name and words go up with the file. */
export type SentWords = Pick<UploadContext, "contributorName" | "caption">;

/**
 * What this tab holds of the files it sends, shared by the upload hooks (use-uploads.ts and the hooks
 * it is made of). Plain maps, not state: nothing on screen is drawn from them.
 */
export interface SendingFiles {
  /** Each upload started, by list item. */
  uploads: Map<string, { upload: tus.Upload; file: File; fingerprint: string }>;
  /** Every file as it was picked, by list item, so one whose upload never started can be retried. */
  picked: Map<string, File>;
  /** The lock of each upload this tab is sending, by fingerprint, released when it ends. */
  locks: Map<string, () => void>;
  /** The fingerprint of each item sent on from an earlier visit, to free it if cancelled before it starts. */
  keptIds: Map<string, string>;
  /** Why the browser could not keep a file, by fingerprint, for the page's next visit to say. */
  notKept: Map<string, string>;
}

export function useSendingFiles(): SendingFiles {
  const [sending] = useState(() => ({ uploads: new Map(), picked: new Map(), locks: new Map(), keptIds: new Map(), notKept: new Map() }));
  return sending;
}

/** The Web Lock held while a file is sent, by the app or the page's early uploader (early-uploads.server.ts). */
export const UPLOAD_LOCK_PREFIX = "chorus-upload:";

/**
 * Holds a lock named after an upload while this tab sends it (Web Locks, where the browser has
 * them), so a second tab of the same page does not send the same kept file at the same time.
 * Resolves with its release, or null when another tab holds it.
 */
export function holdUploadLock(fingerprint: string): Promise<(() => void) | null> {
  if (typeof navigator === "undefined" || !navigator.locks) return Promise.resolve(() => {});
  return new Promise((resolve) => {
    void navigator.locks
      .request(`${UPLOAD_LOCK_PREFIX}${fingerprint}`, { ifAvailable: true }, (lock) => {
        if (!lock) return resolve(null);
        return new Promise<void>((release) => resolve(() => release()));
      })
      .catch(() => resolve(() => {}));
  });
}
