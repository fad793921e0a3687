import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PageError } from "~/components/shell/page-error";
import { formatMoney } from "~/domain/commerce/money";
import { PRODUCT_NAME } from "~/domain/product";
import { localGiftCardClaim } from "~/services/gift-cards/local-claim.server";

export const meta: MetaFunction = () => [{ title: `Your gift card — ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

/** The local gift-card vendor's claim page: what Tremendous's reward link is when no Tremendous key is set. */
export async function loader({ params }: LoaderFunctionArgs) {
  const claim = await localGiftCardClaim(params.id ?? "");
  if (!claim) throw new Response("Not found", { status: 404 });
  return json({ claim });
}

export default function LocalGiftCardPage() {
  const { claim } = useLoaderData<typeof loader>();
  return (
    <div className="card form-card stack">
      <p className="badge">Test gift card: it cannot be spent</p>
      <h1>
        {formatMoney(claim.amount, claim.currency)} at {claim.brand}
      </h1>
      <p>For {claim.recipientName}, from everyone who chipped in.</p>
      <p>
        Card code: <strong>{claim.code}</strong>
      </p>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <PageError
      words={{
        404: { title: "There is no such gift card", text: "This is the local gift card vendor: open a card from the link in its e-mail." },
      }}
    />
  );
}
