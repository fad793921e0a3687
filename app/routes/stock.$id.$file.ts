import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import { createReadableStreamFromReadable, type LoaderFunctionArgs } from "@remix-run/node";
import { localStockFile } from "~/services/media/stock-photos.server";

const SIZES: Record<string, number> = { "400.jpg": 400, "1920.jpg": 1920 };

/** The app's own stock backdrops, rendered once and then served from disk; public and cacheable. */
export async function loader({ params }: LoaderFunctionArgs) {
  const width = SIZES[params.file ?? ""];
  const file = width ? await localStockFile(params.id ?? "", width) : null;
  if (!file) return new Response("Not found", { status: 404 });
  const { size } = await fs.stat(file);
  return new Response(createReadableStreamFromReadable(createReadStream(file)), {
    headers: { "Content-Type": "image/jpeg", "Content-Length": String(size), "Cache-Control": "public, max-age=86400" },
  });
}
