import crypto from "node:crypto";
import fs from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { crc32 } from "node:zlib";

// An S3-compatible server on loopback, small enough to read: path-style addressing
// (/{bucket}/{key}), objects kept as files in a temporary folder. It speaks the parts
// of the protocol the storage provider and upload staging use (objects with their own
// metadata, multipart uploads and their parts, listings, batch deletes) and is strict
// about them, so a request the real service would refuse fails here too: the SDK's
// aws-chunked bodies must decode to exactly x-amz-decoded-content-length bytes and match
// their trailing checksum, multipart parts must be completed with the ETags they were given.

export interface RecordedRequest {
  method: string;
  /** Object key, decoded; "" for a bucket-level request. */
  key: string;
  bucket: string;
  query: Record<string, string>;
  operation: string;
  status: number;
  /** The access key id named in the request's signature. */
  accessKeyId: string | null;
  contentEncoding: string | null;
  contentSha256: string | null;
  range: string | null;
  /** Bytes of object data the request carried, once decoded. */
  bytes: number;
}

interface ObjectMeta {
  key: string;
  size: number;
  contentType: string;
  etag: string;
  lastModified: string;
  /** The object's own metadata, sent and read back as x-amz-meta-* headers. */
  userMetadata: Record<string, string>;
}

interface MultipartUpload {
  key: string;
  contentType: string;
  initiated: Date;
  parts: Map<number, { file: string; etag: string; checksum: string | null; size: number; lastModified: Date }>;
}

export interface S3StandIn {
  endpoint: string;
  bucket: string;
  requests: RecordedRequest[];
  /** How many objects are stored now. */
  objectCount(): Promise<number>;
  /** Multipart uploads started and neither completed nor aborted. */
  openUploads(): number;
  /** The next `times` requests of `operation` are answered 503 SlowDown, as S3 does under load. */
  failNext(operation: string, times?: number): void;
  close(): Promise<void>;
}

class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const MIN_PART_SIZE = 5 * 1024 * 1024;

const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
const unescapeXml = (entity: string, code?: string) =>
  code
    ? String.fromCharCode(Number(code))
    : ({ "&quot;": '"', "&amp;": "&", "&lt;": "<", "&gt;": ">", "&apos;": "'" } as Record<string, string>)[entity]!;
const md5 = (data: Buffer) => crypto.createHash("md5").update(data).digest("hex");

async function readBody(req: http.IncomingMessage) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Decodes an aws-chunked body: `<hex size>[;chunk-signature=…]\r\n<data>\r\n` … then a
 * zero-size chunk, optional trailing headers (a checksum) and a blank line.
 */
export function decodeAwsChunked(raw: Buffer) {
  const parts: Buffer[] = [];
  const trailers: Record<string, string> = {};
  let at = 0;
  const line = () => {
    const end = raw.indexOf("\r\n", at);
    if (end < 0) throw new S3Error(400, "IncompleteBody", "aws-chunked body ends inside a chunk header.");
    const text = raw.subarray(at, end).toString("latin1");
    at = end + 2;
    return text;
  };
  for (;;) {
    const header = line();
    const size = Number.parseInt(header.split(";")[0]!, 16);
    if (!Number.isFinite(size) || size < 0) throw new S3Error(400, "InvalidChunkSizeError", `Bad chunk header: ${header}`);
    if (size === 0) break;
    if (at + size + 2 > raw.length) throw new S3Error(400, "IncompleteBody", "aws-chunked body is shorter than its chunks say.");
    parts.push(raw.subarray(at, at + size));
    at += size;
    if (raw.subarray(at, at + 2).toString() !== "\r\n")
      throw new S3Error(400, "InvalidChunkSizeError", "A chunk is longer than its header says.");
    at += 2;
  }
  while (at < raw.length) {
    const text = line();
    if (text === "") break;
    const colon = text.indexOf(":");
    trailers[text.slice(0, colon).trim().toLowerCase()] = text.slice(colon + 1).trim();
  }
  return { data: Buffer.concat(parts), trailers };
}

const crc32Base64 = (data: Buffer) => {
  const sum = Buffer.alloc(4);
  sum.writeUInt32BE(crc32(data) >>> 0);
  return sum.toString("base64");
};

/** The object bytes of a PUT, and the CRC32 they came with, checked the way S3 checks them. */
function objectBytes(req: http.IncomingMessage, raw: Buffer) {
  const sha = String(req.headers["x-amz-content-sha256"] ?? "");
  const chunked = /aws-chunked/.test(String(req.headers["content-encoding"] ?? "")) || sha.startsWith("STREAMING-");
  if (!chunked) {
    const declared = req.headers["content-length"];
    if (declared !== undefined && Number(declared) !== raw.length)
      throw new S3Error(400, "IncompleteBody", "Body length differs from Content-Length.");
    if (/^[0-9a-f]{64}$/.test(sha) && crypto.createHash("sha256").update(raw).digest("hex") !== sha) {
      throw new S3Error(400, "XAmzContentSHA256Mismatch", "The body does not match x-amz-content-sha256.");
    }
    return { data: raw, checksum: checkChecksum(req.headers["x-amz-checksum-crc32"] as string | undefined, raw) };
  }
  const decodedLength = req.headers["x-amz-decoded-content-length"];
  if (decodedLength === undefined)
    throw new S3Error(411, "MissingContentLength", "aws-chunked upload without x-amz-decoded-content-length.");
  const { data, trailers } = decodeAwsChunked(raw);
  if (data.length !== Number(decodedLength)) {
    throw new S3Error(400, "IncompleteBody", `Decoded ${data.length} bytes, x-amz-decoded-content-length said ${decodedLength}.`);
  }
  return {
    data,
    checksum: checkChecksum(trailers["x-amz-checksum-crc32"] ?? (req.headers["x-amz-checksum-crc32"] as string | undefined), data),
  };
}

function checkChecksum(expected: string | undefined, data: Buffer) {
  if (expected && expected !== crc32Base64(data)) throw new S3Error(400, "BadDigest", "The CRC32 checksum does not match the data.");
  return expected ?? null;
}

/** `bytes=a-b`, `bytes=a-` or `bytes=-n` against an object of `size` bytes; null when there is no usable range. */
function byteRange(header: string | undefined, size: number) {
  const match = header?.match(/^bytes=(\d*)-(\d*)$/);
  if (!match || (match[1] === "" && match[2] === "")) return null;
  let start: number;
  let end: number;
  if (match[1] === "") {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) throw new S3Error(416, "InvalidRange", "The requested range is not satisfiable.");
  return { start, end };
}

function operationOf(method: string, query: Record<string, string>, key: string) {
  if (!key) {
    if (method === "GET" && query["list-type"] === "2") return "ListObjectsV2";
    if (method === "GET" && "uploads" in query) return "ListMultipartUploads";
    if (method === "POST" && "delete" in query) return "DeleteObjects";
    return "Unknown";
  }
  if (method === "POST")
    return "uploads" in query ? "CreateMultipartUpload" : query.uploadId !== undefined ? "CompleteMultipartUpload" : "Unknown";
  if (query.uploadId !== undefined)
    return ({ PUT: "UploadPart", GET: "ListParts", DELETE: "AbortMultipartUpload" } as Record<string, string>)[method] ?? "Unknown";
  return (
    ({ PUT: "PutObject", HEAD: "HeadObject", GET: "GetObject", DELETE: "DeleteObject" } as Record<string, string>)[method] ?? "Unknown"
  );
}

export async function startS3StandIn({ bucket = "chorus-test" } = {}): Promise<S3StandIn> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "chorus-s3-stand-in-"));
  const requests: RecordedRequest[] = [];
  const uploads = new Map<string, MultipartUpload>();
  const failures = new Map<string, number>();
  const fileOf = (key: string) => path.join(root, crypto.createHash("sha256").update(key).digest("hex"));
  const metaOf = async (key: string): Promise<ObjectMeta | null> => fs.readFile(`${fileOf(key)}.json`, "utf8").then(JSON.parse, () => null);

  const userMetadataOf = (req: http.IncomingMessage) =>
    Object.fromEntries(
      Object.entries(req.headers)
        .filter(([name]) => name.startsWith("x-amz-meta-"))
        .map(([name, value]) => [name, String(value)]),
    );

  async function store(key: string, data: Buffer, contentType: string, userMetadata: Record<string, string> = {}) {
    const meta: ObjectMeta = {
      key,
      size: data.length,
      contentType,
      etag: `"${md5(data)}"`,
      lastModified: new Date().toUTCString(),
      userMetadata,
    };
    await fs.writeFile(fileOf(key), data);
    await fs.writeFile(`${fileOf(key)}.json`, JSON.stringify(meta));
    return meta;
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, record: RecordedRequest) {
    const url = new URL(req.url!, "http://stand-in");
    const [, bucketName = "", ...rest] = url.pathname.split("/");
    record.bucket = decodeURIComponent(bucketName);
    record.key = rest.map(decodeURIComponent).join("/");
    record.query = Object.fromEntries(url.searchParams);
    const { key, query } = record;
    if (record.bucket !== bucket) throw new S3Error(404, "NoSuchBucket", "The specified bucket does not exist.");

    record.operation = operationOf(req.method!, query, key);
    const planned = failures.get(record.operation) ?? 0;
    if (planned > 0) {
      failures.set(record.operation, planned - 1);
      await readBody(req);
      throw new S3Error(503, "SlowDown", "Please reduce your request rate.");
    }
    if (!key) return bucketRequest(req, res, record);

    if (req.method === "POST" && "uploads" in query) {
      await readBody(req);
      const uploadId = crypto.randomUUID();
      uploads.set(uploadId, {
        key,
        contentType: String(req.headers["content-type"] ?? "application/octet-stream"),
        initiated: new Date(),
        parts: new Map(),
      });
      res.setHeader("content-type", "application/xml");
      return res.end(
        xml(
          `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${escapeXml(key)}</Key><UploadId>${uploadId}</UploadId></InitiateMultipartUploadResult>`,
        ),
      );
    }
    if (query.uploadId !== undefined) {
      const upload = uploads.get(query.uploadId);
      if (!upload || upload.key !== key) throw new S3Error(404, "NoSuchUpload", "The specified multipart upload does not exist.");
      if (req.method === "PUT") {
        const partNumber = Number(query.partNumber);
        if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10_000)
          throw new S3Error(400, "InvalidArgument", "Part number must be 1 to 10000.");
        const { data, checksum } = objectBytes(req, await readBody(req));
        record.bytes = data.length;
        const file = path.join(root, `part-${query.uploadId}-${partNumber}`);
        await fs.writeFile(file, data);
        const etag = `"${md5(data)}"`;
        upload.parts.set(partNumber, { file, etag, checksum, size: data.length, lastModified: new Date() });
        res.setHeader("etag", etag);
        // As S3 does: a part sent with a checksum has it named back, and again on completion.
        if (checksum) res.setHeader("x-amz-checksum-crc32", checksum);
        return res.end();
      }
      if (req.method === "POST") {
        const body = (await readBody(req)).toString();
        const listed = [...body.matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map(([, part]) => ({
          number: Number(part!.match(/<PartNumber>(\d+)<\/PartNumber>/)?.[1]),
          etag: part!.match(/<ETag>(.*?)<\/ETag>/)?.[1]?.replace(/&quot;|&#34;/g, '"'),
          checksum: part!.match(/<ChecksumCRC32>(.*?)<\/ChecksumCRC32>/)?.[1] ?? null,
        }));
        if (listed.length === 0) throw new S3Error(400, "MalformedXML", "CompleteMultipartUpload lists no parts.");
        const data: Buffer[] = [];
        let previous = 0;
        for (const { number, etag, checksum } of listed) {
          const part = upload.parts.get(number);
          if (number <= previous) throw new S3Error(400, "InvalidPartOrder", "Parts must be listed in ascending order.");
          if (!part || part.etag !== etag) throw new S3Error(400, "InvalidPart", `Part ${number} was not uploaded with that ETag.`);
          if (part.checksum && checksum !== part.checksum)
            throw new S3Error(400, "InvalidPart", `Part ${number} was sent with a checksum its completion does not name.`);
          if (number < listed.at(-1)!.number && (await fs.stat(part.file)).size < MIN_PART_SIZE) {
            throw new S3Error(400, "EntityTooSmall", "Every part but the last must be at least 5 MiB.");
          }
          data.push(await fs.readFile(part.file));
          previous = number;
        }
        const whole = Buffer.concat(data);
        record.bytes = whole.length;
        const meta = await store(key, whole, upload.contentType);
        for (const part of upload.parts.values()) await fs.rm(part.file, { force: true });
        uploads.delete(query.uploadId);
        res.setHeader("content-type", "application/xml");
        return res.end(
          xml(
            `<CompleteMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${escapeXml(key)}</Key><ETag>${escapeXml(meta.etag)}</ETag></CompleteMultipartUploadResult>`,
          ),
        );
      }
      if (req.method === "DELETE") {
        for (const part of upload.parts.values()) await fs.rm(part.file, { force: true });
        uploads.delete(query.uploadId);
        res.statusCode = 204;
        return res.end();
      }
      if (req.method === "GET") {
        // ListParts, in one page: this stand-in never holds a thousand parts.
        const parts = [...upload.parts].sort(([a], [b]) => a - b);
        res.setHeader("content-type", "application/xml");
        return res.end(
          xml(
            `<ListPartsResult><Bucket>${bucket}</Bucket><Key>${escapeXml(key)}</Key><UploadId>${query.uploadId}</UploadId><IsTruncated>false</IsTruncated>${parts
              .map(
                ([number, part]) =>
                  `<Part><PartNumber>${number}</PartNumber><LastModified>${part.lastModified.toISOString()}</LastModified><ETag>${escapeXml(part.etag)}</ETag><Size>${part.size}</Size>${
                    part.checksum ? `<ChecksumCRC32>${part.checksum}</ChecksumCRC32>` : ""
                  }</Part>`,
              )
              .join("")}</ListPartsResult>`,
          ),
        );
      }
    }
    if (req.method === "PUT") {
      if (req.headers["x-amz-copy-source"]) throw new S3Error(501, "NotImplemented", "CopyObject is not part of this stand-in.");
      const { data } = objectBytes(req, await readBody(req));
      record.bytes = data.length;
      const meta = await store(key, data, String(req.headers["content-type"] ?? "application/octet-stream"), userMetadataOf(req));
      res.setHeader("etag", meta.etag);
      return res.end();
    }
    if (req.method === "HEAD" || req.method === "GET") {
      const meta = await metaOf(key);
      if (!meta) throw new S3Error(404, "NoSuchKey", "The specified key does not exist.");
      const { size } = await fs.stat(fileOf(key));
      const range = byteRange(req.headers.range, size);
      res.setHeader("content-type", meta.contentType);
      res.setHeader("etag", meta.etag);
      res.setHeader("last-modified", meta.lastModified);
      res.setHeader("accept-ranges", "bytes");
      for (const [name, value] of Object.entries(meta.userMetadata ?? {})) res.setHeader(name, value);
      if (range) {
        res.statusCode = 206;
        res.setHeader("content-range", `bytes ${range.start}-${range.end}/${size}`);
      }
      const length = range ? range.end - range.start + 1 : size;
      res.setHeader("content-length", String(length));
      if (req.method === "HEAD") return res.end();
      const data = Buffer.alloc(length);
      const handle = await fs.open(fileOf(key));
      try {
        await handle.read(data, 0, length, range?.start ?? 0);
      } finally {
        await handle.close();
      }
      record.bytes = length;
      return res.end(data);
    }
    if (req.method === "DELETE") {
      await fs.rm(fileOf(key), { force: true });
      await fs.rm(`${fileOf(key)}.json`, { force: true });
      res.statusCode = 204;
      return res.end();
    }
    throw new S3Error(405, "MethodNotAllowed", `${req.method} is not allowed here.`);
  }

  /** Every stored object's record. */
  async function storedObjects() {
    const names = (await fs.readdir(root)).filter((name) => name.endsWith(".json"));
    const metas = await Promise.all(
      names.map((name) => fs.readFile(path.join(root, name), "utf8").then((text) => JSON.parse(text) as ObjectMeta)),
    );
    return metas.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** ListObjectsV2 (prefix, delimiter, pages of max-keys), ListMultipartUploads (one page), DeleteObjects. */
  async function bucketRequest(req: http.IncomingMessage, res: http.ServerResponse, record: RecordedRequest) {
    const { query, operation } = record;
    res.setHeader("content-type", "application/xml");
    if (operation === "ListObjectsV2") {
      const prefix = query.prefix ?? "";
      const delimiter = query.delimiter ?? "";
      const maxKeys = Math.min(Number(query["max-keys"] ?? 1000), 1000);
      const after = query["continuation-token"] ?? query["start-after"] ?? "";
      const contents: ObjectMeta[] = [];
      const prefixes = new Set<string>();
      let truncated = false;
      let last = "";
      for (const meta of await storedObjects()) {
        if (!meta.key.startsWith(prefix) || meta.key <= after) continue;
        if (contents.length + prefixes.size >= maxKeys) {
          truncated = true;
          break;
        }
        const cut = delimiter ? meta.key.indexOf(delimiter, prefix.length) : -1;
        if (cut >= 0) prefixes.add(meta.key.slice(0, cut + delimiter.length));
        else contents.push(meta);
        last = meta.key;
      }
      return res.end(
        xml(
          `<ListBucketResult><Name>${bucket}</Name><Prefix>${escapeXml(prefix)}</Prefix><KeyCount>${contents.length + prefixes.size}</KeyCount><MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${
            truncated ? `<NextContinuationToken>${escapeXml(last)}</NextContinuationToken>` : ""
          }${contents
            .map(
              (meta) =>
                `<Contents><Key>${escapeXml(meta.key)}</Key><LastModified>${new Date(meta.lastModified).toISOString()}</LastModified><ETag>${escapeXml(meta.etag)}</ETag><Size>${meta.size}</Size></Contents>`,
            )
            .join(
              "",
            )}${[...prefixes].map((p) => `<CommonPrefixes><Prefix>${escapeXml(p)}</Prefix></CommonPrefixes>`).join("")}</ListBucketResult>`,
        ),
      );
    }
    if (operation === "ListMultipartUploads") {
      return res.end(
        xml(
          `<ListMultipartUploadsResult><Bucket>${bucket}</Bucket><IsTruncated>false</IsTruncated>${[...uploads]
            .map(
              ([uploadId, upload]) =>
                `<Upload><Key>${escapeXml(upload.key)}</Key><UploadId>${uploadId}</UploadId><Initiated>${upload.initiated.toISOString()}</Initiated></Upload>`,
            )
            .join("")}</ListMultipartUploadsResult>`,
        ),
      );
    }
    if (operation === "DeleteObjects") {
      const { data } = objectBytes(req, await readBody(req));
      if (!req.headers["content-md5"] && !Object.keys(req.headers).some((name) => name.startsWith("x-amz-checksum-")))
        throw new S3Error(400, "InvalidRequest", "DeleteObjects needs a Content-MD5 or a checksum header.");
      const keys = [...data.toString().matchAll(/<Key>(.*?)<\/Key>/g)].map(([, key]) =>
        key!.replace(/&#(\d+);|&quot;|&amp;|&lt;|&gt;|&apos;/g, unescapeXml),
      );
      for (const key of keys) {
        await fs.rm(fileOf(key), { force: true });
        await fs.rm(`${fileOf(key)}.json`, { force: true });
      }
      return res.end(xml(`<DeleteResult>${keys.map((key) => `<Deleted><Key>${escapeXml(key)}</Key></Deleted>`).join("")}</DeleteResult>`));
    }
    throw new S3Error(501, "NotImplemented", "This bucket-level request is not part of this stand-in.");
  }

  const server = http.createServer((req, res) => {
    const record: RecordedRequest = {
      method: req.method!,
      key: "",
      bucket: "",
      query: {},
      operation: "Unknown",
      // Read from the response, so a client that has its answer sees the status it was sent.
      get status() {
        return res.statusCode;
      },
      accessKeyId: String(req.headers.authorization ?? "").match(/Credential=([^/]+)\//)?.[1] ?? null,
      contentEncoding: (req.headers["content-encoding"] as string | undefined) ?? null,
      contentSha256: (req.headers["x-amz-content-sha256"] as string | undefined) ?? null,
      range: req.headers.range ?? null,
      bytes: 0,
    };
    requests.push(record);
    handle(req, res, record).catch((error: unknown) => {
      const failure = error instanceof S3Error ? error : new S3Error(500, "InternalError", String(error));
      req.resume();
      res.statusCode = failure.status;
      if (req.method === "HEAD") return res.end();
      res.setHeader("content-type", "application/xml");
      res.end(
        xml(
          `<Error><Code>${failure.code}</Code><Message>${escapeXml(failure.message)}</Message><Key>${escapeXml(record.key)}</Key></Error>`,
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };

  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    requests,
    objectCount: async () => (await fs.readdir(root)).filter((name) => name.endsWith(".json")).length,
    openUploads: () => uploads.size,
    failNext: (operation, times = 1) => void failures.set(operation, times),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await fs.rm(root, { recursive: true, force: true });
    },
  };
}
