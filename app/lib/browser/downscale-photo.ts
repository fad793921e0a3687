/**
 * Shrinks a photo in the browser when it is far larger than a render needs, so a
 * weak mobile link carries a few MB instead of tens. Anything else, or a failure,
 * returns the file unchanged: the server keeps what arrives as the original.
 */
export async function downscalePhoto(file: File, maxEdge: number): Promise<{ file: File; downscaled: boolean }> {
  if (!/^image\/(jpeg|png|webp)$/.test(file.type) || typeof createImageBitmap !== "function") return { file, downscaled: false };
  try {
    const bitmap = await createImageBitmap(file, { imageOrientation: "from-image" } as ImageBitmapOptions);
    const longest = Math.max(bitmap.width, bitmap.height);
    if (longest <= maxEdge * 1.25) {
      bitmap.close();
      return { file, downscaled: false };
    }
    const scale = maxEdge / longest;
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    canvas.getContext("2d")!.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.9));
    if (!blob || blob.size >= file.size) return { file, downscaled: false };
    const name = file.name.replace(/\.[^.]+$/, "") + ".jpg";
    return { file: new File([blob], name, { type: "image/jpeg", lastModified: file.lastModified }), downscaled: true };
  } catch {
    return { file, downscaled: false };
  }
}
