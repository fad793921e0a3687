import { json, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { PageError } from "~/components/shell/page-error";
import { OccasionIcon } from "~/components/ui/occasion-icon";
import { homePageOccasions } from "~/domain/occasions";
import { DASHBOARD_TITLE, PRODUCT_DESCRIPTION, PRODUCT_NAME, START_PATH } from "~/domain/product";
import { occasionHref } from "~/lib/links.server";

export const meta: MetaFunction = () => [
  { title: `${PRODUCT_NAME} — group video gifts for the moments that matter` },
  { name: "description", content: PRODUCT_DESCRIPTION },
];

export async function loader() {
  return json({
    occasions: homePageOccasions().map((o) => ({ type: o.type, label: o.label, href: occasionHref(o) })),
  });
}

export default function HomePage() {
  const { occasions } = useLoaderData<typeof loader>();
  return (
    <div className="stack">
      <section className="hero">
        <h1>One video from everyone who loves them.</h1>
        <p>
          Start a {PRODUCT_NAME}, invite friends by e-mail or text, and they add photos and clips from their phone — no app, no account. We
          turn it into a montage with music, ready to send.
        </p>
        <div className="row">
          <Link className="button" to={START_PATH}>
            Start a {PRODUCT_NAME}
          </Link>
          <Link className="button button--secondary" to="/dashboard">
            {DASHBOARD_TITLE}
          </Link>
        </div>
        <p>From $5.00 · rated 4.9 from 1,823 ratings</p>
      </section>
      <section aria-labelledby="occasions-heading">
        <h2 id="occasions-heading">For every occasion</h2>
        <ul className="occasion-grid">
          {occasions.map((o) => (
            <li key={o.type}>
              <a href={o.href}>
                <OccasionIcon type={o.type} size={24} className="occasion-icon--inline" /> {o.label}
              </a>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="how-heading">
        <h2 id="how-heading">How it works</h2>
        <ol className="steps">
          <li className="card">
            <h3>1. Start</h3>
            <p>Pick the occasion and who it is for, and set a deadline.</p>
          </li>
          <li className="card">
            <h3>2. Invite</h3>
            <p>Send a link by e-mail or text. Uploads keep going on a weak signal and resume if the line drops.</p>
          </li>
          <li className="card">
            <h3>3. Deliver</h3>
            <p>Choose a theme and music, render in a fraction of the video's length, and share a private link.</p>
          </li>
        </ol>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <PageError />;
}
