import { useLocation } from "@remix-run/react";
import { useEffect, useRef, type ReactNode, type RefObject } from "react";

// The organiser's page on a phone: the parts used now and then (settings, the share links, the
// danger zone…) are folded into a summary that says what is inside. They are folded in the
// server's HTML, so a phone without JavaScript gets the short page too and opens a part by
// tapping its summary. With JavaScript, wide screens open them all (the page fits there), and a
// link or address naming a folded part opens it (docs/decisions/026).

/** Wide enough to show every part open: the phone layout stops here (the stylesheet's 600 px). */
const WIDE = "(min-width: 601px)";

/**
 * A part of the organiser's page that starts folded. `open` unfolds it in the server's HTML (a
 * form of it was just refused, say); once open, a later render never folds it again.
 */
export function FoldedSection({
  id,
  heading,
  about,
  open = false,
  className,
  children,
}: {
  id: string;
  heading: string;
  /** What is inside, said in the summary of the folded part. */
  about: string;
  open?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const opened = useRef(false);
  if (open) opened.current = true;
  return (
    <details className={`card event-section event-fold${className ? ` ${className}` : ""}`} id={id} open={opened.current}>
      <summary>
        <h2 id={`${id}-heading`}>{heading}</h2>
        <span className="event-fold__about">{about}</span>
      </summary>
      {children}
    </details>
  );
}

/** The folded part that contains the element with this id, if it is folded. */
function foldedAround(id: string) {
  if (!id) return null;
  const target = document.getElementById(id);
  const details = target?.closest("details.event-fold");
  return details instanceof HTMLDetailsElement && !details.open ? details : null;
}

/**
 * Opens the page's folded parts when they are asked for: all of them on a wide screen, and on a
 * phone the one a link or the address (`#settings`) names. Marks the page `data-unfolding` once
 * it listens.
 */
export function useUnfolding(page: RefObject<HTMLElement>) {
  const { hash } = useLocation();

  useEffect(() => {
    const root = page.current;
    if (!root) return;
    const wide = window.matchMedia(WIDE);
    const openAll = () => {
      if (!wide.matches) return;
      for (const details of root.querySelectorAll<HTMLDetailsElement>("details.event-fold")) details.open = true;
    };
    const openNamed = () => {
      const details = foldedAround(decodeURIComponent(window.location.hash.slice(1)));
      if (!details) return;
      details.open = true;
      details.scrollIntoView();
    };
    // A link to the part already in the address fires no hashchange: open it before the jump.
    const onClick = (event: MouseEvent) => {
      const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('a[href^="#"]') : null;
      const details = link ? foldedAround(decodeURIComponent(link.hash.slice(1))) : null;
      if (details) details.open = true;
    };
    openAll();
    openNamed();
    wide.addEventListener("change", openAll);
    window.addEventListener("hashchange", openNamed);
    root.addEventListener("click", onClick);
    root.dataset.unfolding = "";
    return () => {
      wide.removeEventListener("change", openAll);
      window.removeEventListener("hashchange", openNamed);
      root.removeEventListener("click", onClick);
    };
  }, [page]);

  // The page's own forms come back to their part (`/e/…#settings`) without a hashchange.
  useEffect(() => {
    const details = foldedAround(decodeURIComponent(hash.slice(1)));
    if (details) details.open = true;
  }, [hash]);
}
