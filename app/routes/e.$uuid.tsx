import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { PRODUCT_NAME, START_PATH } from "~/domain/product";

export const meta: MetaFunction = () => [{ title: PRODUCT_NAME }, { name: "robots", content: "noindex" }];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function loader({ params }: LoaderFunctionArgs) {
  if (!UUID.test(params.uuid ?? "")) throw new Response("Not found", { status: 404 });
  // Events are not stored yet: every link shows the "not found" state, never private data.
  return json({ footerReport: null }, { status: 404 });
}

export default function EventPage() {
  useLoaderData<typeof loader>();
  return (
    <div className="card empty-state">
      <h1>We couldn't find this {PRODUCT_NAME}</h1>
      <p>The link may be incomplete, or the organiser may have removed it. Ask them for a fresh link.</p>
      <Link className="button" to={START_PATH}>
        Start your own {PRODUCT_NAME}
      </Link>
    </div>
  );
}
