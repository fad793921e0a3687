/**
 * Placeholder until the media feature lands: clips will be listed here as they arrive.
 * For now it names the invitees who have contributed.
 */
export function EventContributions({ contributors }: { contributors: string[] }) {
  return (
    <section className="card event-section" id="contributions" aria-labelledby="contributions-heading">
      <h2 id="contributions-heading">Contributions</h2>
      <p className="field-hint">Photos and clips will appear here as they arrive.</p>
      {contributors.length ? (
        <ul className="event-names">
          {contributors.map((name, i) => (
            <li key={`${name}-${i}`}>{name}</li>
          ))}
        </ul>
      ) : (
        <p className="empty-note">No contributions yet. Invite people below, or share the contributor link.</p>
      )}
    </section>
  );
}
