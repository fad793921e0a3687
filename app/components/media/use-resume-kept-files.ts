import { useEffect } from "react";
import type { KeptFile } from "~/lib/browser/kept-files";
import { storedUploads } from "~/lib/browser/upload-store";
import { holdUploadLock, type SendingFiles, type SentWords, type UploadContext } from "./sending-files";
import { keptFilesModule, loadUploader, type UploadClientModule } from "./upload-modules";
import { newItemId, preparingItem, type UploadListState } from "./use-upload-list";

/** Starts the upload of a file that is ready to go (use-uploads.ts). */
export type StartUpload = (id: string, file: File, client: UploadClientModule, words?: SentWords, kept?: KeptFile) => Promise<void>;

/**
 * When the page opens, the files kept from an earlier visit (kept-files.ts) are sent on from the
 * server's offset, with the words they were picked with; uploads interrupted without a kept file are
 * listed, with the reason, to be picked again. A file another tab of the page is sending is left to it.
 */
export function useResumeKeptFiles(
  { eventUuid, purpose }: Pick<UploadContext, "eventUuid" | "purpose">,
  { append, patch, setInterrupted }: Pick<UploadListState, "append" | "patch" | "setInterrupted">,
  sending: SendingFiles,
  start: StartUpload,
) {
  useEffect(() => {
    let gone = false;
    void (async () => {
      const stored = storedUploads(eventUuid, purpose);
      const kept = [];
      // Files are kept only while their upload is unfinished: with none, there is nothing to load.
      const unfinished = stored.some((u) => u.state !== "done");
      const keeping = unfinished ? await keptFilesModule().catch(() => null) : null;
      for (const file of keeping ? await keeping.keptFiles(eventUuid, purpose) : []) {
        if (stored.some((u) => u.fingerprint === file.fingerprint && u.state === "done")) void keeping!.forgetKeptFile(file.fingerprint);
        else kept.push(file);
      }
      if (gone) return;
      const resuming = new Set(kept.map((k) => k.fingerprint));
      setInterrupted(stored.filter((u) => u.state !== "done" && !resuming.has(u.fingerprint)));
      for (const entry of kept) {
        // Another tab of this page is already sending it.
        const unlock = await holdUploadLock(entry.fingerprint);
        if (!unlock) continue;
        if (gone) return unlock();
        sending.locks.set(entry.fingerprint, unlock);
        const { file } = entry;
        const id = newItemId();
        sending.picked.set(id, file);
        sending.keptIds.set(id, entry.fingerprint);
        append({ ...preparingItem(id, file), resumed: true });
        // On a link that cuts the upload client off, it is fetched again; the card waits for signal.
        const client = await loadUploader(() => patch(id, { state: "paused" }));
        if (gone) {
          sending.locks.delete(entry.fingerprint);
          return unlock();
        }
        await start(id, file, client, { contributorName: entry.contributorName, caption: entry.caption }, entry);
      }
    })();
    return () => {
      gone = true;
    };
  }, [eventUuid, purpose, append, patch, setInterrupted, sending, start]);
}
