import fs from "node:fs";
import { fileURLToPath } from "node:url";
import stylesHref from "~/styles/app.css";

/**
 * The built stylesheet (app/styles/app.css and the font faces it imports), read once when the
 * server starts, to be written into every page (components/app-styles.tsx). This module is part
 * of the server build, build/index.js; the stylesheet is public/build/_assets/app-<hash>.css.
 */
export const APP_STYLES = fs.readFileSync(fileURLToPath(new URL(`../public${stylesHref}`, import.meta.url)), "utf8");
