import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { PageError } from "~/components/shell/page-error";
import { db } from "~/lib/db.server";
import { clientIp } from "~/lib/http.server";
import { listOutboxMessages } from "~/models/outbox.server";
import { outboxReadableBy } from "~/services/messaging/mail.server";

export const meta: MetaFunction = () => [{ title: "Local outbox" }, { name: "robots", content: "noindex" }];

/** Mail and text messages kept locally when no SMTP server is set. In production only to a browser on this machine. */
export async function loader({ request }: LoaderFunctionArgs) {
  if (!outboxReadableBy(clientIp(request))) throw new Response("Not found", { status: 404 });
  const messages = await listOutboxMessages(db());
  return json({ messages: messages.map((m) => ({ id: m.id, channel: m.channel, to: m.to, subject: m.subject, createdAt: m.createdAt })) });
}

export default function OutboxPage() {
  const { messages } = useLoaderData<typeof loader>();
  return (
    <div>
      <h1>Local outbox</h1>
      <p>Messages the app would have sent. Set SMTP_URL to send real mail instead.</p>
      {messages.length === 0 ? (
        <p className="card empty-state">No messages yet.</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>When</th>
              <th>To</th>
              <th>Subject</th>
            </tr>
          </thead>
          <tbody>
            {messages.map((m) => (
              <tr key={m.id}>
                <td>{new Date(m.createdAt).toLocaleString("en-GB")}</td>
                <td>
                  {m.to} <span className="badge">{m.channel}</span>
                </td>
                <td>
                  <Link to={`/dev/outbox/${m.id}`}>{m.subject ?? "(text message)"}</Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <PageError />;
}
