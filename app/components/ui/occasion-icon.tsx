/**
 * An occasion's picture (app/lib/occasion-icons.server.tsx), decorative: the occasion's name is
 * always written beside it.
 */
export function OccasionIcon({ type, size = 48, className }: { type: string; size?: number; className?: string }) {
  return (
    <img
      className={className ? `occasion-icon ${className}` : "occasion-icon"}
      src={`/icons/occasions/${encodeURIComponent(type)}`}
      alt=""
      width={size}
      height={size}
      decoding="async"
    />
  );
}
