import { useRevalidator } from "@remix-run/react";
import { useEffect, useState } from "react";
import { connectRealtime } from "~/realtime/client";

/**
 * Keeps the open reports queue current: a report made anywhere reaches the /staff namespace
 * (spec §7.1) and the queue is read again. Without JavaScript the queue is as fresh as its last load.
 */
export function LiveReports() {
  const { revalidate } = useRevalidator();
  const [heard, setHeard] = useState(0);
  useEffect(() => {
    const socket = connectRealtime("/staff");
    socket.on("event:reported", () => {
      setHeard((n) => n + 1);
      revalidate();
    });
    return () => {
      socket.close();
    };
  }, [revalidate]);
  return (
    <p className="visually-hidden" role="status">
      {heard ? `${heard === 1 ? "A new report" : `${heard} new reports`} arrived.` : ""}
    </p>
  );
}
