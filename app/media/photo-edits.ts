import { z } from "zod";

/**
 * A contributor's adjustments to a photo, applied by `editPhoto` in this order:
 * 1. auto-orient (EXIF), 2. crop (in pixels of the upright photo), 3. rotate clockwise,
 * 4. mirror (flipH left↔right, flipV top↔bottom, as seen after the rotation),
 * 5. tone: contrast around mid-grey, then brightness (both multipliers, 1 = unchanged).
 */
export const photoEditsSchema = z.strictObject({
  crop: z
    .strictObject({
      left: z.number().int().min(0),
      top: z.number().int().min(0),
      width: z.number().int().min(1),
      height: z.number().int().min(1),
    })
    .optional(),
  rotate: z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]).optional(),
  flipH: z.boolean().optional(),
  flipV: z.boolean().optional(),
  brightness: z.number().min(0.5).max(1.5).optional(),
  contrast: z.number().min(0.5).max(1.5).optional(),
});

export type PhotoEdits = z.infer<typeof photoEditsSchema>;
export type PhotoCrop = NonNullable<PhotoEdits["crop"]>;

/** A crop that does not fit inside the photo: the form should say so next to the crop tool. */
export class InvalidPhotoEditError extends Error {
  override name = "InvalidPhotoEditError";
}

export function assertCropInside(crop: PhotoCrop, image: { width: number; height: number }) {
  if (crop.left + crop.width > image.width || crop.top + crop.height > image.height) {
    throw new InvalidPhotoEditError(
      `The crop (${crop.width}×${crop.height} at ${crop.left},${crop.top}) goes outside the photo (${image.width}×${image.height}).`,
    );
  }
}
