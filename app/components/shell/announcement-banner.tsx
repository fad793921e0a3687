import { type ReactNode, useEffect, useState } from "react";
import { announcementTone, type AnnouncementItem } from "~/domain/announcements";
import { api } from "~/lib/browser/api-client";

/** Active announcements, fixed at the bottom of the screen (spec §2.2, §7.1). */
export function AnnouncementBanner() {
  const [items, setItems] = useState<AnnouncementItem[]>([]);
  const [dismissed, setDismissed] = useState<string[]>([]);

  useEffect(() => {
    const controller = new AbortController();
    api
      .get<{ success: true; data: AnnouncementItem[] }>("/v2/announcements/active", { signal: controller.signal })
      .then((reply) => setItems(Array.isArray(reply.data) ? reply.data : []))
      .catch((error: Error) => {
        // Spec §8: a failed fetch is only a console warning, and no banner.
        if (error.name !== "AbortError") console.warn("Could not load announcements:", error.message);
      });
    return () => controller.abort();
  }, []);

  const visible = items.filter((item) => !dismissed.includes(item.message));
  if (!visible.length) return null;
  return (
    <div className="announcements" aria-label="Announcements">
      {visible.map((item) => (
        <AnnouncementLine key={item.message} item={item}>
          <button type="button" aria-label="Dismiss announcement" onClick={() => setDismissed((d) => [...d, item.message])}>
            ×
          </button>
        </AnnouncementLine>
      ))}
    </div>
  );
}

/** One announcement as the banner shows it: green for a promotion, yellow otherwise (spec §9). */
export function AnnouncementLine({ item, children }: { item: AnnouncementItem; children?: ReactNode }) {
  return (
    <div className={`announcement announcement--${announcementTone(item.type)}`} role="status">
      {item.link ? <a href={item.link}>{item.message}</a> : <span>{item.message}</span>}
      {children}
    </div>
  );
}
