import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PageError } from "~/components/shell/page-error";
import { addressLines } from "~/domain/postal-address";
import { PRODUCT_NAME } from "~/domain/product";
import { asPageError, notFound } from "~/lib/http.server";
import { localMailingView } from "~/services/postcards/provider.server";

export const meta: MetaFunction = () => [{ title: `Local print service — ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

// The local print service's page of one postcard (no LOB_API_KEY): its proof and its tracking, where
// it is and when it is expected, where it goes, and its print files.

export async function loader({ params }: LoaderFunctionArgs) {
  const mailing = await localMailingView(params.id);
  if (!mailing) throw asPageError(notFound("There is no such postcard at the local print service."));
  return json({ ...mailing, lines: addressLines(mailing.to) }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function LocalPostcardPage() {
  const mailing = useLoaderData<typeof loader>();
  return (
    <div className="card form-card stack">
      <h1>Local print service</h1>
      <p className="field-hint">{`Postcard ${mailing.id}`}</p>
      <p role="status">
        <strong>{mailing.where}</strong>
      </p>
      {mailing.expectedBy ? <p>{`Expected by ${mailing.expectedBy}.`}</p> : null}
      <address>
        {mailing.lines.map((line) => (
          <div key={line}>{line}</div>
        ))}
      </address>
      <p>
        <a href={mailing.frontUrl}>Front (PDF)</a> · <a href={mailing.backUrl}>Back (PDF)</a>
      </p>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <PageError
      words={{
        404: {
          title: "There is no such postcard",
          text: "This is the local print service: open a postcard from the link the staff pages give.",
        },
      }}
    />
  );
}
