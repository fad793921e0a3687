import type { MetaFunction } from "@remix-run/node";
import { PRODUCT_NAME } from "~/domain/product";

export const meta: MetaFunction = () => [{ title: PRODUCT_NAME }, { name: "robots", content: "noindex" }];

/** The bare app shell (spec §2.1 "/_app"): header, menus and footer around an empty page, for offline and install use. */
export default function AppShellPage() {
  return <p className="visually-hidden">{PRODUCT_NAME} is loading…</p>;
}
