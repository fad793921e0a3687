import { themes, type Theme } from "drizzle/schema";
import { isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BUILT_IN_THEMES, DEFAULT_THEME_SLUG } from "~/domain/built-in-themes";
import { db } from "~/lib/db.server";
import { findArrangement } from "~/models/arrangement.server";
import { findThemeById, findThemeBySlug } from "~/models/theme.server";
import { ensureBuiltInThemes, themeFor } from "~/services/arrange/themes.server";
import type { RunningServer } from "../../server";
import { loggedInUser } from "../support/accounts";
import { createTestEvent } from "../support/events";
import { TestClient } from "../support/http-client";
import { startTestServer } from "../support/test-server";

let server: RunningServer;
let golden: Theme;
let midnight: Theme;
beforeAll(async () => {
  server = await startTestServer();
  golden = (await findThemeBySlug(db(), "golden-hour"))!;
  midnight = (await findThemeBySlug(db(), "midnight"))!;
});
afterAll(() => server.close());

const anonymous = () => new TestClient(server.url);
const user = () => loggedInUser(server.url);

/** The page's HTML with React's text separators and common escapes undone. */
const pageOf = async (response: Response) =>
  (await response.text()).replaceAll("<!-- -->", "").replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");

/** The `<input>` tag with this name and value, whatever its attribute order. */
const inputTag = (page: string, name: string, value: string) =>
  (page.match(/<input[^>]*>/g) ?? []).find((t) => t.includes(`name="${name}"`) && t.includes(`value="${value}"`)) ?? "";

describe("the theme catalogue", () => {
  test("the built-ins are written once at start-up, however often it runs", async () => {
    await ensureBuiltInThemes();
    await ensureBuiltInThemes();
    const rows = await db().select().from(themes).where(isNotNull(themes.slug));
    expect(rows.map((r) => r.slug).sort()).toEqual(BUILT_IN_THEMES.map((t) => t.slug).sort());
    expect(rows.every((r) => r.isPublic && r.ownerId === null && !r.archivedAt)).toBe(true);
  });

  test("anyone sees the built-ins in their designed order, with previews", async () => {
    const reply = await anonymous().get("/api/v2/themes");
    expect(reply.status).toBe(200);
    const list = reply.body.data as {
      name: string;
      isBuiltIn: boolean;
      previewUrl: string;
      archived: boolean;
      isPublic: boolean;
      introUrl: string;
    }[];
    expect(list.map((t) => t.name)).toEqual(BUILT_IN_THEMES.map((t) => t.name));
    for (const theme of list) {
      expect(theme).toMatchObject({ isBuiltIn: true, isPublic: true, archived: false });
      expect(theme.previewUrl).toMatch(/^\/themes\/[a-z-]+\/preview\.jpg$/);
      expect((await anonymous().raw("GET", theme.introUrl)).status).toBe(200);
    }
  });

  test("a copy of a built-in starts with its look, belongs to its maker and is private", async () => {
    const alice = await user();
    const bob = await user();
    const copy = await alice.client.post("/api/v2/themes", { basedOn: golden.id });
    expect(copy.status).toBe(201);
    expect(copy.body.data).toMatchObject({
      name: "Golden Hour (copy)",
      fontUrl: golden.fontUrl,
      fontColor: golden.fontColor,
      textBoxColor: golden.textBoxColor,
      introUrl: golden.introUrl,
      scenes: golden.scenes,
      isPublic: false,
      isBuiltIn: false,
      basedOnId: golden.id,
      archived: false,
    });

    const named = await alice.client.post("/api/v2/themes", {
      basedOn: golden.id,
      name: "  Ana's day ",
      fontColor: "#FFF",
      textBoxColor: "#000000CC",
    });
    expect(named.status).toBe(201);
    expect(named.body.data).toMatchObject({ name: "Ana's day", fontColor: "#ffffff", textBoxColor: "#000000cc" });

    const mine = (await alice.client.get("/api/v2/themes")).body.data.map((t: { id: string }) => t.id);
    expect(mine).toEqual(expect.arrayContaining([copy.body.data.id, named.body.data.id]));
    const theirs = (await bob.client.get("/api/v2/themes")).body.data.map((t: { id: string }) => t.id);
    expect(theirs).not.toContain(copy.body.data.id);
    expect((await bob.client.get(`/api/v2/themes/${copy.body.data.id}`)).status).toBe(404);
    expect((await anonymous().get(`/api/v2/themes/${copy.body.data.id}`)).status).toBe(404);
    expect((await alice.client.get(`/api/v2/themes/${copy.body.data.id}`)).body.data.name).toBe("Golden Hour (copy)");

    expect((await anonymous().post("/api/v2/themes", { basedOn: golden.id })).status).toBe(401);
    const unknownBase = await alice.client.post("/api/v2/themes", { basedOn: "00000000-0000-4000-8000-000000000000" });
    expect(unknownBase.status).toBe(400);
    expect(unknownBase.body.error.fields.basedOn).toBeTruthy();
    // Bob cannot base a theme on Alice's private one.
    expect((await bob.client.post("/api/v2/themes", { basedOn: copy.body.data.id })).status).toBe(400);
  });

  test("changes are checked field by field, and as a whole", async () => {
    const { client } = await user();
    const { id } = (await client.post("/api/v2/themes", { basedOn: golden.id })).body.data;

    const bad = await client.put(`/api/v2/themes/${id}`, {
      name: " ",
      fontColor: "red",
      textBoxColor: "#12345",
      fontSize: 10,
      fontLineSpacing: 3,
      textBoxScale: 0.1,
      fontUrl: "https://example.com/font.ttf",
      introUrl: "https://example.com/intro.jpg",
      outroUrl: "/themes/../../etc/passwd",
      scenes: [{ kind: "collage", photos: 9 }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("VALIDATION_FAILED");
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(
      [
        "name",
        "fontColor",
        "textBoxColor",
        "fontSize",
        "fontLineSpacing",
        "textBoxScale",
        "fontUrl",
        "introUrl",
        "outroUrl",
        "scenes.0.photos",
      ].sort(),
    );

    const unreadable = await client.put(`/api/v2/themes/${id}`, { fontColor: "#777777", textBoxColor: "#888888" });
    expect(unreadable.status).toBe(400);
    expect(unreadable.body.error.fields.fontColor).toMatch(/hard to read/);

    const collageWithoutCollages = await client.put(`/api/v2/themes/${id}`, { isCollage: true });
    expect(collageWithoutCollages.status).toBe(400);
    expect(collageWithoutCollages.body.error.fields.scenes).toBeTruthy();

    const good = await client.put(`/api/v2/themes/${id}`, {
      name: "Starry collage",
      introUrl: "/themes/midnight/intro.jpg",
      outroUrl: "/themes/midnight/outro.jpg",
      fontUrl: "/fonts/themes/Caveat-Bold.ttf",
      fontSize: "58",
      isCollage: true,
      scenes: [{ kind: "collage", photos: 3 }, { kind: "single" }],
    });
    expect(good.status).toBe(200);
    expect(good.body.data).toMatchObject({
      name: "Starry collage",
      fontSize: 58,
      isCollage: true,
      previewUrl: "/themes/midnight/preview.jpg",
    });
    const stored = await findThemeById(db(), id);
    expect(stored).toMatchObject({
      fontUrl: "/fonts/themes/Caveat-Bold.ttf",
      scenes: [{ kind: "collage", photos: 3 }, { kind: "single" }],
    });
  });

  test("built-in themes and other people's themes can't be changed, deleted or restored", async () => {
    const alice = await user();
    const bob = await user();
    const { id } = (await alice.client.post("/api/v2/themes", { basedOn: golden.id })).body.data;

    for (const reply of [
      await alice.client.put(`/api/v2/themes/${golden.id}`, { name: "Mine now" }),
      await alice.client.delete(`/api/v2/themes/${golden.id}`),
      await alice.client.post(`/api/v2/themes/${golden.id}/restore`),
    ]) {
      expect(reply.status).toBe(403);
      expect(reply.body.error.message).toMatch(/Built-in themes can't be changed or deleted/);
    }
    for (const reply of [
      await bob.client.put(`/api/v2/themes/${id}`, { name: "Mine now" }),
      await bob.client.delete(`/api/v2/themes/${id}`),
      await bob.client.post(`/api/v2/themes/${id}/restore`),
    ]) {
      expect(reply.status).toBe(403);
      expect(reply.body.error.message).toMatch(/belongs to someone else/);
    }
    expect((await anonymous().put(`/api/v2/themes/${id}`, { name: "x" })).status).toBe(401);
    expect((await alice.client.put("/api/v2/themes/not-a-uuid", { name: "x" })).status).toBe(404);
    expect(await findThemeById(db(), golden.id)).toMatchObject({ name: "Golden Hour", archivedAt: null });
    expect(await findThemeById(db(), id)).toMatchObject({ name: "Golden Hour (copy)", archivedAt: null });
  });

  test("deleting archives a theme, and restoring brings it back", async () => {
    const { client } = await user();
    const { id } = (await client.post("/api/v2/themes", { basedOn: midnight.id })).body.data;
    const ids = async (path: string) => (await client.get(path)).body.data.map((t: { id: string }) => t.id);

    const deleted = await client.delete(`/api/v2/themes/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.archived).toBe(true);
    expect(await ids("/api/v2/themes")).not.toContain(id);
    expect(await ids("/api/v2/themes?archived=1")).toContain(id);
    expect((await client.get(`/api/v2/themes/${id}`)).body.data.archived).toBe(true);
    expect((await client.put(`/api/v2/themes/${id}`, { name: "Edited while deleted" })).status).toBe(400);

    const restored = await client.post(`/api/v2/themes/${id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.data.archived).toBe(false);
    expect(await ids("/api/v2/themes")).toContain(id);
  });
});

describe("the arrange page's theme part", () => {
  test("the organiser chooses a theme, and the page shows it chosen after reloading", async () => {
    const { user: organiser, client } = await user();
    const event = await createTestEvent(organiser);
    const path = `/e/${event.uuid}/arrange`;

    const before = await pageOf(await client.raw("GET", path));
    for (const builtIn of BUILT_IN_THEMES) expect(before).toContain(builtIn.name);
    expect(inputTag(before, "themeId", golden.id)).toContain("checked");
    expect(inputTag(before, "themeId", midnight.id)).not.toContain("checked");
    expect(before).toContain("/themes/midnight/preview.jpg");

    const chosen = await client.form(path, { intent: "theme-choose", themeId: midnight.id });
    expect(chosen.status).toBe(302);
    expect(chosen.headers.get("location")).toBe(`${path}#theme`);
    expect(client.hasCookie("__toast")).toBe(true);
    expect((await findArrangement(db(), event.id)).themeId).toBe(midnight.id);
    expect((await themeFor(event.id)).id).toBe(midnight.id);

    const after = await pageOf(await client.raw("GET", path));
    expect(inputTag(after, "themeId", midnight.id)).toContain("checked");
    expect(inputTag(after, "themeId", golden.id)).not.toContain("checked");
    expect(after).toContain("Theme chosen");
  });

  test("customising copies the chosen theme, saves edits, and deleting falls back to the default", async () => {
    const { user: organiser, client } = await user();
    const event = await createTestEvent(organiser);
    const path = `/e/${event.uuid}/arrange`;
    await client.form(path, { intent: "theme-choose", themeId: midnight.id });

    expect((await client.form(path, { intent: "theme-customise", themeId: midnight.id })).status).toBe(302);
    const copy = await themeFor(event.id);
    expect(copy).toMatchObject({ ownerId: organiser.id, basedOnId: midnight.id, isPublic: false, fontUrl: midnight.fontUrl });
    expect(await pageOf(await client.raw("GET", path))).toContain(`Your theme: ${copy.name}`);

    const fields = {
      intent: "theme-save",
      themeId: copy.id,
      name: "Ana at night",
      fontColor: "#fff4d6",
      textBoxColor: "#101a40",
      textBoxOpacity: "90",
      fontUrl: "/fonts/themes/Caveat-Bold.ttf",
      fontSize: "58",
      textBoxScale: "1.1",
    };
    expect((await client.form(path, fields)).status).toBe(302);
    expect(await findThemeById(db(), copy.id)).toMatchObject({
      name: "Ana at night",
      textBoxColor: "#101a40e6",
      fontUrl: "/fonts/themes/Caveat-Bold.ttf",
      fontSize: 58,
      textBoxScale: 1.1,
    });

    const unreadable = await client.form(path, {
      ...fields,
      name: "Grey on grey",
      fontColor: "#777777",
      textBoxColor: "#888888",
      textBoxOpacity: "100",
    });
    expect(unreadable.status).toBe(400);
    const page = await pageOf(unreadable);
    expect(page).toContain("hard to read");
    expect(page).toContain('value="Grey on grey"');
    expect((await findThemeById(db(), copy.id))!.name).toBe("Ana at night");

    expect((await client.form(path, { intent: "theme-delete", themeId: copy.id })).status).toBe(302);
    expect((await themeFor(event.id)).slug).toBe(DEFAULT_THEME_SLUG);
    expect(await pageOf(await client.raw("GET", path))).toContain("Deleted themes (1)");
    expect((await client.form(path, { intent: "theme-restore", themeId: copy.id })).status).toBe(302);
    expect((await themeFor(event.id)).id).toBe(copy.id);
  });

  test("built-in themes can't be saved over from the page, nor someone else's theme chosen", async () => {
    const { user: organiser, client } = await user();
    const other = await user();
    const event = await createTestEvent(organiser);
    const path = `/e/${event.uuid}/arrange`;
    const theirs = (await other.client.post("/api/v2/themes", { basedOn: golden.id })).body.data.id as string;

    const save = await client.form(path, {
      intent: "theme-save",
      themeId: golden.id,
      name: "Mine",
      fontColor: "#000000",
      textBoxColor: "#ffffff",
      textBoxOpacity: "100",
      fontUrl: golden.fontUrl,
      fontSize: "50",
      textBoxScale: "1",
    });
    expect(save.status).toBe(403);
    expect(await pageOf(save)).toContain("Built-in themes can't be changed or deleted");
    expect((await client.form(path, { intent: "theme-choose", themeId: theirs })).status).toBe(404);
    expect((await client.form(path, { intent: "theme-choose" })).status).toBe(400);
    expect((await findArrangement(db(), event.id)).themeId).toBeNull();
    expect((await findThemeById(db(), golden.id))!.name).toBe("Golden Hour");
  });

  test("only the organiser opens the arrange page or chooses its theme", async () => {
    const { user: organiser } = await user();
    const stranger = await user();
    const event = await createTestEvent(organiser);
    const path = `/e/${event.uuid}/arrange`;

    expect([403, 404]).toContain((await stranger.client.raw("GET", path)).status);
    expect([403, 404]).toContain((await stranger.client.form(path, { intent: "theme-choose", themeId: midnight.id })).status);
    expect((await anonymous().raw("GET", path)).status).toBe(401);
    expect((await findArrangement(db(), event.id)).themeId).toBeNull();
  });
});

test("an event nobody has arranged uses the default built-in theme", async () => {
  const { user: organiser } = await user();
  const event = await createTestEvent(organiser);
  expect((await themeFor(event.id)).slug).toBe(DEFAULT_THEME_SLUG);
});
