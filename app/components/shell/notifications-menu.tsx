import { useEffect, useState } from "react";
import { BellIcon } from "~/components/ui/icons";
import { api } from "~/lib/browser/api-client";
import { connectRealtime } from "~/realtime/client";
import type { NotificationPayload } from "~/realtime/events";
import { useDetailsMenu } from "./use-details-menu";

const markAll = (items: NotificationPayload[], field: "seenAt" | "readAt", id?: string) =>
  items.map((n) => (!id || n.id === id ? { ...n, [field]: n[field] ?? new Date().toISOString() } : n));

/**
 * The bell: the latest notifications, live over /users. Opening the list marks
 * them seen; following one marks it read (spec §4).
 */
export function NotificationsMenu({ initial }: { initial: NotificationPayload[] }) {
  const [items, setItems] = useState(initial);
  const ref = useDetailsMenu();

  useEffect(() => setItems(initial), [initial]);
  useEffect(() => {
    const socket = connectRealtime("/users");
    socket.on("notification:new", (n) => setItems((list) => [n, ...list.filter((m) => m.id !== n.id)].slice(0, 20)));
    return () => {
      socket.close();
    };
  }, []);

  const unseen = items.filter((n) => !n.seenAt);
  const onToggle = () => {
    if (!ref.current?.open || !unseen.length) return;
    setItems((list) => markAll(list, "seenAt"));
    for (const n of unseen) void api.post(`/v2/notifications/${n.id}/seen`).catch(() => {});
  };
  const onOpen = (n: NotificationPayload) => {
    setItems((list) => markAll(list, "readAt", n.id));
    void api.post(`/v2/notifications/${n.id}/read`).catch(() => {});
  };

  return (
    <details className="notifications-menu" ref={ref} onToggle={onToggle}>
      <summary aria-label={`Notifications${unseen.length ? `, ${unseen.length} new` : ""}`}>
        <BellIcon size={20} />
        {unseen.length ? <span className="notifications-menu__count">{unseen.length}</span> : null}
      </summary>
      <div className="account-menu__panel">
        {items.length === 0 ? (
          <p className="menu-identity">Nothing new. We'll let you know when clips arrive.</p>
        ) : (
          <ul className="menu-list">
            {items.map((n) => (
              <li key={n.id} className={n.readAt ? undefined : "notification--unread"}>
                <a href={n.url ?? "#"} onClick={() => onOpen(n)}>
                  <strong>{n.title}</strong>
                  {n.body ? <span className="notification__body">{n.body}</span> : null}
                </a>
              </li>
            ))}
          </ul>
        )}
      </div>
    </details>
  );
}
