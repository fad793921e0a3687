import type { User } from "drizzle/schema";
import { getUser } from "~/services/accounts/current-user.server";

/** The header a contributor's browser sends its upload token in. */
const UPLOAD_TOKEN_HEADER = "x-upload-token";

/**
 * How a caller may prove a right to a photo or clip: their account, the upload token their
 * browser kept (X-Upload-Token), or the recipient's key (`?v=<privateKey>`, thank-you videos).
 */
export interface MediaCredentials {
  user: User | null;
  uploadToken: string | null;
  privateKey: string | null;
}

export const uploadTokenOf = (request: Request) => request.headers.get(UPLOAD_TOKEN_HEADER)?.trim() || null;

export async function mediaCredentialsOf(request: Request): Promise<MediaCredentials> {
  return {
    user: await getUser(request),
    uploadToken: uploadTokenOf(request),
    privateKey: new URL(request.url).searchParams.get("v"),
  };
}
