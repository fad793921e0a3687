import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ADMIN_PAGE_REFUSALS } from "~/components/admin/admin-page-refusals";
import { StaffNav, staffTime } from "~/components/admin/staff-pages";
import { PageError } from "~/components/shell/page-error";
import { formatMoney } from "~/domain/commerce/money";
import { PRODUCT_NAME } from "~/domain/product";
import { requireAdmin } from "~/services/accounts/current-user.server";
import { postcardsForStaff } from "~/services/postcards/postcards.server";

export const meta: MetaFunction = () => [{ title: `Postcards — Admin — ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

// Printed postcards that need a look: paid and not yet with the print service, failed, or refunded.

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return json({ cards: await postcardsForStaff() }, { headers: { "Cache-Control": "private, no-store" } });
}

export default function StaffPostcardsPage() {
  const { cards } = useLoaderData<typeof loader>();
  return (
    <div className="stack">
      <StaffNav />
      <h1>Postcards</h1>
      {cards.length ? (
        <table>
          <thead>
            <tr>
              <th>Updated</th>
              <th>State</th>
              <th>To</th>
              <th>Amount</th>
              <th>Why</th>
            </tr>
          </thead>
          <tbody>
            {cards.map((card) => (
              <tr key={card.id}>
                <td>{staffTime(card.updatedAt)}</td>
                <td>{card.status}</td>
                <td>{card.to}</td>
                <td>{formatMoney(card.amount, card.currency.toUpperCase())}</td>
                <td>{card.failure ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>No postcard needs a look.</p>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <PageError words={ADMIN_PAGE_REFUSALS} />;
}
