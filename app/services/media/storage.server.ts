import path from "node:path";
import { localDiskStorage } from "~/integrations/storage/local-disk.server";
import { s3Storage } from "~/integrations/storage/s3.server";
import type { StorageProvider } from "~/integrations/storage/storage-port";
import { env } from "~/lib/env.server";
import { singleton } from "~/lib/singleton.server";

/** S3 when S3_BUCKET is set, otherwise `<DATA_DIR>/storage` on local disk. */
export function storage(): StorageProvider {
  return singleton("storage", () => {
    const settings = env();
    if (settings.S3_BUCKET) {
      return s3Storage({
        bucket: settings.S3_BUCKET,
        region: settings.S3_REGION,
        endpoint: settings.S3_ENDPOINT,
        accessKeyId: settings.S3_ACCESS_KEY_ID,
        secretAccessKey: settings.S3_SECRET_ACCESS_KEY,
        forcePathStyle: settings.S3_FORCE_PATH_STYLE,
      });
    }
    return localDiskStorage(path.join(settings.DATA_DIR, "storage"));
  });
}
