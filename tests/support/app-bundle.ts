import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";

// The app's processes (`server.ts`, `app/jobs/worker.server.ts`) as the tests start them: the same
// sources, bundled once per test file into one file each that node runs as it is. Run through tsx,
// node transformed and loaded the app module by module at each start: on two busy cores 4 to 7 s
// before a worker's first line ran, 2 to 4 s from the bundle, and a test that kills and starts
// workers starts up to eight. Packages stay outside the bundle, loaded from node_modules as usual.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const outDir = path.join(root, "node_modules/.cache/chorus-app-bundles");
const bundles = new Map<string, Promise<string>>();
/**
 * Bundles older than this belong to test files long finished: removed as the next is made (a test
 * process is ended by vitest before it could remove its own).
 */
const LEFT_OVER_MS = 60 * 60 * 1000;

/** The file node runs for `script` (a path from the project root, as `npm run worker` names it). */
export function appBundle(script: string): Promise<string> {
  let bundle = bundles.get(script);
  if (!bundle) {
    bundle = bundleOf(script);
    bundles.set(script, bundle);
    bundle.catch(() => bundles.delete(script));
  }
  return bundle;
}

async function bundleOf(script: string) {
  const entry = path.join(root, script);
  // Its own name per build: a file running elsewhere is never written over.
  const outfile = path.join(outDir, `${path.basename(script, ".ts")}-${crypto.randomUUID()}.mjs`);
  await fs.mkdir(outDir, { recursive: true });
  await removeLeftOvers();
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    tsconfig: path.join(root, "tsconfig.json"),
    logLevel: "error",
    plugins: [asIfUnbundled(entry)],
  });
  return outfile;
}

async function removeLeftOvers() {
  for (const name of await fs.readdir(outDir)) {
    const file = path.join(outDir, name);
    const made = await fs.stat(file).catch(() => null);
    if (made && Date.now() - made.mtimeMs > LEFT_OVER_MS) await fs.rm(file, { force: true });
  }
}

/**
 * Each module keeps the address it has unbundled (`import.meta.url`: the project root, the build and
 * public folders are found from it), and the entry sees itself named as the script node was asked
 * to run, as it checks before it starts (server.ts).
 */
function asIfUnbundled(entry: string): Plugin {
  return {
    name: "as-if-unbundled",
    setup(bundler) {
      bundler.onLoad({ filter: /\.tsx?$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        let contents = (await fs.readFile(args.path, "utf8")).replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href));
        if (args.path === entry) contents = `process.argv[1] = ${JSON.stringify(entry)};\n${contents}`;
        return { contents, loader: args.path.endsWith(".tsx") ? "tsx" : "ts" };
      });
    },
  };
}
