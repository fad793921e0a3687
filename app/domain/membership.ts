export type Role = "user" | "editor" | "admin";

export interface AuthedUser {
  id: string;
  email: string;
  role: Role;
  subscriptionId: string | null;
  hasLegacyB2bSubscription: boolean;
}

type MembershipFields = Pick<AuthedUser, "subscriptionId" | "hasLegacyB2bSubscription">;

/** A member has a subscription, or a subscription from the old business plans (spec §6). */
export const isMember = (user: MembershipFields | null | undefined) => !!user && (!!user.subscriptionId || user.hasLegacyB2bSubscription);

/** Admins and editors pass the edit-rights check (spec §6). */
export const hasEditRights = (user: Pick<AuthedUser, "role"> | null | undefined) => user?.role === "admin" || user?.role === "editor";

export const isAdmin = (user: Pick<AuthedUser, "role"> | null | undefined) => user?.role === "admin";

/** The VIP promo card is shown to everyone who is not a member, logged in or not (spec §2.2). */
export const showsVipCard = (user: MembershipFields | null | undefined) => !isMember(user);

/** A user reads and changes only their own account records; staff may see anyone's (spec §6). */
export const canAccessAccountOf = (actor: Pick<AuthedUser, "id" | "role">, ownerId: string) => actor.id === ownerId || hasEditRights(actor);
