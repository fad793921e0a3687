import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Fragment } from "react";
import { PageError } from "~/components/shell/page-error";
import { db } from "~/lib/db.server";
import { clientIp } from "~/lib/http.server";
import { findOutboxMessage } from "~/models/outbox.server";
import { outboxReadableBy } from "~/services/messaging/mail.server";

export const meta: MetaFunction = () => [{ title: "Local outbox" }, { name: "robots", content: "noindex" }];

const UUID = /^[0-9a-f-]{36}$/i;

export async function loader({ request, params }: LoaderFunctionArgs) {
  if (!outboxReadableBy(clientIp(request)) || !UUID.test(params.id ?? "")) throw new Response("Not found", { status: 404 });
  const message = await findOutboxMessage(db(), params.id!);
  if (!message) throw new Response("Not found", { status: 404 });
  return json({ message });
}

/** Plain text with its links made clickable, so a developer can follow a verification link. */
function LinkedText({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/\S+)/g);
  return (
    <div className="outbox-body">
      {parts.map((part, i) =>
        /^https?:\/\//.test(part) ? (
          <a key={i} href={part}>
            {part}
          </a>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </div>
  );
}

export default function OutboxMessagePage() {
  const { message } = useLoaderData<typeof loader>();
  return (
    <div className="stack">
      <p>
        <Link to="/dev/outbox">← All messages</Link>
      </p>
      <h1>{message.subject ?? "Text message"}</h1>
      <p>
        To <strong>{message.to}</strong> · {new Date(message.createdAt).toLocaleString("en-GB")}
      </p>
      <LinkedText text={message.text} />
      {message.html ? (
        <details>
          <summary>HTML version</summary>
          <iframe title="HTML version" sandbox="" srcDoc={message.html} style={{ width: "100%", height: 480, border: "1px solid #ddd" }} />
        </details>
      ) : null}
    </div>
  );
}

export function ErrorBoundary() {
  return <PageError />;
}
