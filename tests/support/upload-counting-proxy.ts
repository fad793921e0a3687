import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A proxy in front of the test server that counts the upload bytes that reach it: the body bytes of
 * every PATCH to /uploads/tus. What it counts beyond a file's size was sent twice. The Host header
 * goes on as the browser sent it, so the server sees the proxy's origin as the page's own.
 */
export async function startUploadCountingProxy(target: string) {
  const upstream = new URL(target);
  let patchBytes = 0;
  const server = http.createServer((req, res) => {
    const counted = req.method === "PATCH" && (req.url ?? "").startsWith("/uploads/tus");
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => res.destroy());
    req.on("data", (chunk: Buffer) => {
      if (counted) patchBytes += chunk.length;
    });
    // A request the browser cut off is cut off for the server too, with what had arrived.
    req.on("aborted", () => forward.destroy());
    res.on("close", () => {
      if (!res.writableFinished) forward.destroy();
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    /** Upload body bytes received so far. */
    patchBytes: () => patchBytes,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
