/**
 * PLACEHOLDER — the contribution form (name, message, photos and clips, with resumable
 * uploads and a no-JavaScript multipart fallback) lands with the media feature.
 * Replace this component; the contributor view renders it where the form goes.
 */
export function ContributionFormPlaceholder() {
  return (
    <section className="card event-section event-placeholder" id="contribute" aria-labelledby="contribute-heading">
      <h2 id="contribute-heading">Add your photo or clip</h2>
      <p>Uploading photos and clips opens here soon. Keep this link: it's how you'll add yours.</p>
    </section>
  );
}
