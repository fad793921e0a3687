// A theme's fonts and pictures are named by the URL the site serves them at ("/fonts/themes/X.ttf",
// "/themes/golden-hour/intro.jpg"); the renderer reads the same files straight from public/.

import path from "node:path";

/** public/ of the app: the server runs from the repository's root (server.ts). */
export const defaultPublicDir = () => path.resolve(process.cwd(), "public");

export class ThemeAssetError extends Error {
  override name = "ThemeAssetError";
}

/**
 * The local file behind a theme asset URL. Only site-relative paths inside `publicDir` are
 * accepted: never a remote URL, and never a path that climbs out of public/ ("/../.env").
 */
export function resolveThemeAsset(url: string, publicDir = defaultPublicDir()): string {
  if (!url.startsWith("/") || url.startsWith("//") || url.includes("\\") || url.includes("\0")) {
    throw new ThemeAssetError(`Not a site asset path: ${JSON.stringify(url)}`);
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.split(/[?#]/)[0]!);
  } catch {
    throw new ThemeAssetError(`Not a site asset path: ${JSON.stringify(url)}`);
  }
  const root = path.resolve(publicDir);
  const file = path.resolve(root, `.${decoded}`);
  const relative = path.relative(root, file);
  if (!relative || relative.startsWith("..") || path.isAbsolute(relative) || decoded.includes("\0")) {
    throw new ThemeAssetError(`Theme asset outside the public folder: ${JSON.stringify(url)}`);
  }
  return file;
}
