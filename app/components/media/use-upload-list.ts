import { useCallback, useState } from "react";
import type { StoredUpload } from "~/lib/browser/upload-store";

export interface UploadItem {
  id: string;
  name: string;
  size: number;
  type: string;
  bytesSent: number;
  /** `refused`: judged by its first bytes to be no photo or video, and never sent. */
  state: "preparing" | "uploading" | "paused" | "done" | "failed" | "cancelled" | "refused";
  downscaled: boolean;
  error?: string;
  mediaUuid?: string;
  /** Picked on an earlier visit of the page, kept in the browser and sent on by itself. */
  resumed?: boolean;
  /** Stopped by the network, not by the server: tried again by itself when the browser is back online. */
  retryable?: boolean;
  /** Picked again after this browser had sent it: shown as sent, and not sent twice. */
  alreadySent?: boolean;
}

export const newItemId = () => `${Date.now()}-${Math.random().toString(36).slice(2)}`;

/** A file just picked (or taken back from an earlier visit), before its first byte goes. */
export const preparingItem = (id: string, file: File): UploadItem => ({
  id,
  name: file.name,
  size: file.size,
  type: file.type,
  bytesSent: 0,
  state: "preparing",
  downscaled: false,
});

const counted = (item: UploadItem) => item.state !== "cancelled" && item.state !== "refused";

/**
 * The files the form lists with their states, and the uploads of earlier visits that were
 * interrupted without a file kept to send on (to be picked again).
 */
export function useUploadList() {
  const [items, setItems] = useState<UploadItem[]>([]);
  const [interrupted, setInterrupted] = useState<StoredUpload[]>([]);

  const append = useCallback((item: UploadItem) => setItems((list) => [...list, item]), []);
  /** Replaces item `id` by what `change` makes of it (called with the newest list's item). */
  const update = useCallback((id: string, change: (item: UploadItem) => UploadItem) => {
    setItems((list) => list.map((item) => (item.id === id ? change(item) : item)));
  }, []);
  const patch = useCallback((id: string, changes: Partial<UploadItem>) => update(id, (item) => ({ ...item, ...changes })), [update]);
  /** Takes item `id` off the list: a second card for a file the list shows already. */
  const remove = useCallback((id: string) => setItems((list) => list.filter((item) => item.id !== id)), []);

  const totalBytes = items.filter(counted).reduce((sum, i) => sum + i.size, 0);
  const sentBytes = items.filter(counted).reduce((sum, i) => sum + i.bytesSent, 0);
  return { items, interrupted, setInterrupted, append, update, patch, remove, overall: totalBytes ? sentBytes / totalBytes : 0 };
}

export type UploadListState = ReturnType<typeof useUploadList>;
