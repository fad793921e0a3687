import { useLocation } from "@remix-run/react";
import { TreesIcon } from "~/components/ui/icons";
import { useLivePot } from "./live-pot";

const treesText = (count: number) => (count === 1 ? "1 tree" : `${count} trees`);

/**
 * Trees planted in the recipient's honour: how many so far (growing live while the page is open), and
 * the way to plant more or to the certificate.
 */
export function EventTrees({ uuid, trees, canPlant }: { uuid: string; trees: { trees: number; planted: number }; canPlant: boolean }) {
  const live = useLivePot(uuid);
  // The recipient's and view-only pages are opened with their key in the address: the trees page needs it too.
  const { search } = useLocation();
  const count = live ? live.trees : trees.trees;
  if (!canPlant && count === 0) return null;
  return (
    <section className="card event-section" id="trees" aria-labelledby="trees-heading">
      <h2 id="trees-heading">
        <TreesIcon /> Trees in their honour
      </h2>
      <p aria-live="polite" data-tree-count={count}>
        {count > 0 ? (
          <>
            <strong>{treesText(count)}</strong> planted in the recipient's honour.
          </>
        ) : (
          "Plant trees in the recipient's honour, with the video."
        )}
      </p>
      <a className={canPlant ? "button" : "button button--secondary"} href={`/e/${uuid}/trees${search}`}>
        {canPlant ? "Plant trees" : "See the certificate"}
      </a>
    </section>
  );
}
