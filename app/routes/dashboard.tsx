import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { DASHBOARD_TITLE, PRODUCT_NAME, PRODUCT_PLURAL, START_PATH } from "~/domain/product";
import { requireUser } from "~/lib/auth.server";

export const meta: MetaFunction = () => [{ title: `${DASHBOARD_TITLE} — ${PRODUCT_NAME}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return json({});
}

export default function DashboardPage() {
  return (
    <div>
      <div className="page-head">
        <h1>{DASHBOARD_TITLE}</h1>
        <Link className="button" to={START_PATH}>
          Start a {PRODUCT_NAME}
        </Link>
      </div>
      <section className="card empty-state" aria-labelledby="empty-heading">
        <h2 id="empty-heading">Nothing here yet</h2>
        <p>
          {PRODUCT_PLURAL} you start and the ones you add clips to will show up here, with their deadline and how many
          people have contributed.
        </p>
        <Link className="button" to={START_PATH}>
          Start your first {PRODUCT_NAME}
        </Link>
      </section>
    </div>
  );
}
