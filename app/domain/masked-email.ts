/**
 * An e-mail address shown to someone who is not its owner, enough to tell whose it may be and no
 * more: the first letter of the name and of the domain, and the domain's last part
 * ("payer@example.test" is "p•••@e•••.test"). Anything that is no address is hidden whole.
 */
export function maskedEmail(email: string): string {
  const at = email.lastIndexOf("@");
  const name = email.slice(0, at);
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf(".");
  if (at < 1 || dot < 1) return "•••";
  return `${name[0]}•••@${domain[0]}•••${domain.slice(dot)}`;
}
