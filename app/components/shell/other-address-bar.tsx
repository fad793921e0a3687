import { PRODUCT_NAME } from "~/domain/product";

/**
 * Shown when the page was opened at another address of this server than the one its mails and texts
 * link to: signing in here would not carry over to those links.
 */
export function OtherAddressBar({ canonicalAddress }: { canonicalAddress: string }) {
  const { origin } = new URL(canonicalAddress);
  return (
    <div className="other-address-bar" role="status">
      <span>
        {PRODUCT_NAME} lives at <strong>{origin}</strong>: links in e-mails and texts open there, so sign in there to stay signed in.
      </span>
      <a href={canonicalAddress}>Go to {origin}</a>
    </div>
  );
}
