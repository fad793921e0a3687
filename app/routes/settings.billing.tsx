import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { isMember } from "~/domain/membership";
import { PRODUCT_NAME, VIP_CARD_TEXT, VIP_CARD_TITLE } from "~/domain/product";
import { getUser } from "~/lib/auth.server";
import { env } from "~/lib/env.server";

export const meta: MetaFunction = () => [{ title: `See Member Perks — ${PRODUCT_NAME}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getUser(request);
  return json({ loggedIn: !!user, member: isMember(user), pricingUrl: env().PRICING_URL });
}

const PERKS = [
  "Unlimited Choruses with no per-video price",
  "1080p renders and the music library",
  "Savings on printed and DVD copies",
  "Priority help from our support team",
];

export default function BillingPage() {
  const { loggedIn, member, pricingUrl } = useLoaderData<typeof loader>();
  return (
    <div className="stack">
      <h1>See Member Perks</h1>
      <section className="card">
        {member ? (
          <>
            <h2>You're a VIP member</h2>
            <p>Thanks for being with us. Your perks apply to every {PRODUCT_NAME} you start.</p>
          </>
        ) : (
          <>
            <h2>{VIP_CARD_TITLE}</h2>
            <p>{VIP_CARD_TEXT}</p>
          </>
        )}
        <ul>
          {PERKS.map((perk) => (
            <li key={perk}>{perk}</li>
          ))}
        </ul>
        {member ? null : (
          <a className="button" href={pricingUrl}>
            {loggedIn ? "See plans" : "See plans and prices"}
          </a>
        )}
      </section>
    </div>
  );
}
