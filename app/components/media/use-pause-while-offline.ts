import { useEffect, useRef } from "react";
import type { SendingFiles } from "./sending-files";
import type { UploadItem, UploadListState } from "./use-upload-list";

/**
 * Offline: what is being sent stops at once and waits (a request cut off by a lost signal can hang
 * for minutes before it fails). Back online: what the network stopped goes on at once, from the
 * server's offset, rather than at its next retry (up to a minute away) or at a press of Retry.
 */
export function usePauseWhileOffline(
  items: UploadItem[],
  patch: UploadListState["patch"],
  sending: SendingFiles,
  retry: (id: string) => void,
) {
  const itemsNow = useRef(items);
  itemsNow.current = items;
  useEffect(() => {
    const pause = () => {
      for (const item of itemsNow.current) {
        const entry = sending.uploads.get(item.id);
        if (item.state === "uploading" && entry) {
          patch(item.id, { state: "paused" });
          void entry.upload.abort(false);
        }
      }
    };
    const resume = () => {
      for (const item of itemsNow.current) {
        const entry = sending.uploads.get(item.id);
        if (item.state === "paused" && entry) {
          patch(item.id, { state: "uploading" });
          void entry.upload.abort(false).then(() => entry.upload.start());
        } else if (item.state === "failed" && item.retryable) retry(item.id);
      }
    };
    window.addEventListener("offline", pause);
    window.addEventListener("online", resume);
    return () => {
      window.removeEventListener("offline", pause);
      window.removeEventListener("online", resume);
    };
  }, [patch, sending, retry]);
}
