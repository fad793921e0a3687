import type { AuthedUser } from "~/domain/membership";

export interface ShellLinks {
  pricing: string;
  help: string;
  faq: string;
  privacy: string;
  terms: string;
  admin: string;
}

export interface ShellProps {
  user: AuthedUser | null;
  links: ShellLinks;
}
