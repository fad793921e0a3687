import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { PageError } from "~/components/shell/page-error";
import { OCCASIONS } from "~/domain/occasions";
import { PRODUCT_NAME, START_PATH } from "~/domain/product";

/** One marketing page per path; several occasions may share one (spec §9 page reuse). */
export async function loader({ params }: LoaderFunctionArgs) {
  const path = `/video-maker/${params.slug}`;
  const occasions = OCCASIONS.filter((o) => o.to.kind === "marketing" && o.to.path === path);
  if (!occasions.length) throw new Response("Not found", { status: 404 });
  return json({
    occasions: occasions.map((o) => ({
      type: o.type,
      label: o.label,
      emoji: o.emoji,
      phrase: o.phrase,
      prefix: o.prefix,
      webApp: o.webApp,
    })),
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.occasions[0]!.label} video maker — ${PRODUCT_NAME}` : PRODUCT_NAME },
];

export default function MarketingPage() {
  const { occasions } = useLoaderData<typeof loader>();
  const main = occasions[0]!;
  const startable = occasions.find((o) => o.webApp);
  return (
    <div className="stack">
      <section className="hero">
        <h1>
          <span aria-hidden="true">{main.emoji}</span> A group video for {main.prefix} {main.phrase}
        </h1>
        <p>
          Collect clips and photos from everyone, add music and a theme, and send one video they will keep. Works on any phone, no app
          needed.
        </p>
        {startable ? (
          <Link className="button" to={`${START_PATH}?occasion=${startable.type}`}>
            Start a {startable.label} {PRODUCT_NAME}
          </Link>
        ) : (
          <Link className="button" to={START_PATH}>
            Start a {PRODUCT_NAME}
          </Link>
        )}
      </section>
      {occasions.length > 1 ? (
        <section>
          <h2>Also for</h2>
          <ul className="occasion-grid">
            {occasions.map((o) => (
              <li key={o.type}>
                <Link to={o.webApp ? `${START_PATH}?occasion=${o.type}` : START_PATH}>
                  <span aria-hidden="true">{o.emoji}</span> {o.label}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <PageError
      words={{
        404: {
          title: "We couldn't find that page",
          text: `There is no video maker at this address, but a ${PRODUCT_NAME} suits any occasion.`,
        },
      }}
      back={{ to: START_PATH, label: `Start a ${PRODUCT_NAME}` }}
    />
  );
}
