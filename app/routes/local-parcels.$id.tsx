import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PageError } from "~/components/shell/page-error";
import { PRODUCT_NAME } from "~/domain/product";
import { asPageError, notFound } from "~/lib/http.server";
import { localParcelView } from "~/services/mail-orders/local-parcel.server";

export const meta: MetaFunction = () => [{ title: `Parcel tracking — ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

// The local fulfilment services' tracking page of one order (no vendor key): where the parcel is and
// when it is expected, as the link a real service gives would say.

export async function loader({ params }: LoaderFunctionArgs) {
  const parcel = await localParcelView(params.id);
  if (!parcel) throw asPageError(notFound("There is no such order at the local fulfilment services."));
  return json(parcel, { headers: { "Cache-Control": "private, no-store" } });
}

export default function LocalParcelPage() {
  const parcel = useLoaderData<typeof loader>();
  return (
    <div className="card form-card stack">
      <h1>{parcel.service}</h1>
      <p className="field-hint">{`Order ${parcel.id}, ${parcel.copies === 1 ? "1 copy" : `${parcel.copies} copies`}`}</p>
      <p role="status">
        <strong>{parcel.where}</strong>
        {parcel.trackingNumber ? ` Tracking number ${parcel.trackingNumber}.` : null}
      </p>
      {parcel.expectedBy && parcel.status !== "failed" ? <p>{`Expected by ${parcel.expectedBy}.`}</p> : null}
      <p>{`Going to ${parcel.goingTo}.`}</p>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <PageError
      words={{
        404: {
          title: "There is no such order",
          text: "This is the local fulfilment service: open an order from the link the staff pages give.",
        },
      }}
    />
  );
}
