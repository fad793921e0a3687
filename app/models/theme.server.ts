import { themes, type Theme } from "drizzle/schema";
import { and, asc, eq, isNotNull, isNull, or, sql } from "drizzle-orm";
import type { Db } from "~/lib/db.server";

export type NewTheme = Omit<typeof themes.$inferInsert, "id" | "archivedAt" | "createdAt" | "updatedAt">;
export type ThemeChanges = Partial<
  Omit<Theme, "id" | "slug" | "ownerId" | "basedOnId" | "isPublic" | "archivedAt" | "createdAt" | "updatedAt">
>;

/**
 * The themes `userId` may choose from: public ones (the built-ins) and their own. Archived own
 * themes are left out unless asked for; an archived public one never shows.
 */
export async function listThemesVisibleTo(db: Db, userId: string | null, options: { withArchived?: boolean } = {}) {
  const publicOnes = and(eq(themes.isPublic, true), isNull(themes.archivedAt));
  const own = userId ? and(eq(themes.ownerId, userId), options.withArchived ? undefined : isNull(themes.archivedAt)) : undefined;
  return db
    .select()
    .from(themes)
    .where(own ? or(publicOnes, own) : publicOnes)
    .orderBy(sql`${themes.ownerId} is not null`, asc(themes.createdAt), asc(themes.name));
}

export async function findThemeById(db: Db, id: string) {
  const [row] = await db.select().from(themes).where(eq(themes.id, id)).limit(1);
  return row ?? null;
}

export async function findThemeBySlug(db: Db, slug: string) {
  const [row] = await db.select().from(themes).where(eq(themes.slug, slug)).limit(1);
  return row ?? null;
}

/** How many themes a user has made, archived ones included. */
export async function countOwnThemes(db: Db, ownerId: string) {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(themes)
    .where(eq(themes.ownerId, ownerId));
  return row?.count ?? 0;
}

export async function insertTheme(db: Db, values: NewTheme) {
  const [row] = await db.insert(themes).values(values).returning();
  return row!;
}

/** Changes one of the owner's themes; someone else's id changes nothing and answers null. */
export async function updateOwnTheme(db: Db, ownerId: string, id: string, changes: ThemeChanges) {
  const [row] = await db
    .update(themes)
    .set({ ...changes, updatedAt: new Date() })
    .where(and(eq(themes.id, id), eq(themes.ownerId, ownerId)))
    .returning();
  return row ?? null;
}

/** Archives (deletes, spec §4) or restores one of the owner's themes. */
export async function setOwnThemeArchived(db: Db, ownerId: string, id: string, archived: boolean) {
  const [row] = await db
    .update(themes)
    .set({ archivedAt: archived ? new Date() : null, updatedAt: new Date() })
    .where(and(eq(themes.id, id), eq(themes.ownerId, ownerId), archived ? isNull(themes.archivedAt) : isNotNull(themes.archivedAt)))
    .returning();
  return row ?? null;
}

/**
 * Writes the built-in themes by slug: new ones are added, changed ones brought up to date.
 * Safe to run at every start and from several processes at once.
 */
export async function upsertBuiltInThemes(db: Db, rows: (NewTheme & { slug: string })[]) {
  if (!rows.length) return [];
  return db
    .insert(themes)
    .values(rows.map((row) => ({ ...row, ownerId: null, isPublic: true })))
    .onConflictDoUpdate({
      target: themes.slug,
      set: {
        name: sql`excluded.name`,
        introUrl: sql`excluded.intro_url`,
        outroUrl: sql`excluded.outro_url`,
        fontUrl: sql`excluded.font_url`,
        fontColor: sql`excluded.font_color`,
        fontSize: sql`excluded.font_size`,
        fontLineSpacing: sql`excluded.font_line_spacing`,
        textBoxColor: sql`excluded.text_box_color`,
        textBoxScale: sql`excluded.text_box_scale`,
        isCollage: sql`excluded.is_collage`,
        isPublic: sql`true`,
        scenes: sql`excluded.scenes`,
        isPremium: sql`excluded.is_premium`,
        archivedAt: sql`null`,
        updatedAt: sql`now()`,
      },
    })
    .returning();
}
