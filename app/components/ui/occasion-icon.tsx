/**
 * An occasion's picture, decorative: the occasion's name is always written beside it. It is drawn
 * from the symbols of /icons/occasions.svg (app/lib/occasion-icons.server.tsx): one file for every
 * occasion on a page, drawn within the page rather than as an image document of its own each.
 */
export function OccasionIcon({ type, size = 48, className }: { type: string; size?: number; className?: string }) {
  return (
    <svg
      className={className ? `occasion-icon ${className}` : "occasion-icon"}
      width={size}
      height={size}
      aria-hidden="true"
      focusable="false"
    >
      <use href={`/icons/occasions.svg#${encodeURIComponent(type)}`} />
    </svg>
  );
}
