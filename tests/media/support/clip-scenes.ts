// Clips made of stretches, as phones record them: a black start with the thumb still on the lens,
// someone speaking, a dark room, a shaking hand. Made on the spot with ffmpeg's test sources.
import sharp from "sharp";
import { ffmpeg } from "./media-fixtures";

export type ScenePicture = "black" | "pattern" | "dark" | "steady" | "shaky";
export type SceneSound = "silence" | "speech" | "whisper";
export type Stretch = { seconds: number; picture: ScenePicture; sound: SceneSound };

/**
 * The picture of a stretch as a lavfi source of `width`×`height`. "steady" and "shaky" look at one
 * still texture (soft blobs, as a room seen small), from a window that holds still or trembles.
 */
function pictureSource({ seconds, picture }: Stretch, width: number, height: number) {
  const size = `${width}x${height}`;
  if (picture === "black") return `color=c=black:s=${size}:r=30:d=${seconds}`;
  if (picture === "pattern") return `testsrc2=size=${size}:rate=30:duration=${seconds}`;
  // A room with the lights off: the same moving picture at a sixth of its brightness.
  if (picture === "dark") return `testsrc2=size=${size}:rate=30:duration=${seconds},lutyuv=y=16+(val-16)/6`;
  const margin = Math.round(width * 0.1);
  const wobble =
    picture === "shaky"
      ? {
          x: `${margin}+${margin * 0.6}*sin(n*2.1)+${margin * 0.4}*sin(n*3.7)`,
          y: `${margin}+${margin * 0.5}*sin(n*1.7)+${margin * 0.4}*sin(n*4.3)`,
        }
      : { x: String(margin), y: String(margin) };
  // Without the temporal flag, noise lays the same pattern on every frame: a still texture.
  return (
    `color=c=gray:s=${Math.round(width / 8)}x${Math.round(height / 8)}:r=30:d=${seconds},noise=alls=100:allf=u,` +
    `scale=${width + 2 * margin}:${height + 2 * margin}:flags=bicubic,crop=${width}:${height}:'${wobble.x}':'${wobble.y}'`
  );
}

/** Speech-like: a low voice whose loudness rises and falls four times a second; a whisper is 40 dB under it. */
function soundSource({ seconds, sound }: Stretch) {
  if (sound === "silence") return `anullsrc=r=48000:cl=mono,atrim=0:${seconds}`;
  const level = sound === "speech" ? "volume=6dB" : "volume=-34dB";
  return `sine=frequency=220:sample_rate=48000:duration=${seconds},${level},tremolo=f=4:d=0.7`;
}

/** A clip of the stretches one after another, H.264 and AAC as a phone writes them. */
export async function makeSceneClip(file: string, stretches: Stretch[], { width = 320, height = 180 } = {}) {
  const sources = stretches.flatMap((stretch, i) => [
    `${pictureSource(stretch, width, height)},setsar=1[v${i}]`,
    `${soundSource(stretch)}[a${i}]`,
  ]);
  const inputs = stretches.map((_, i) => `[v${i}][a${i}]`).join("");
  await ffmpeg([
    "-filter_complex",
    `${sources.join(";")};${inputs}concat=n=${stretches.length}:v=1:a=1[v][a]`,
    ...["-map", "[v]", "-map", "[a]", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"],
    ...["-c:a", "aac", "-ac", "1", file],
  ]);
  return file;
}

/** Skin, as a face's middle: sharp's attention looks for it. */
export const SKIN = { r: 224, g: 172, b: 140 } as const;

/**
 * A picture of soft grey blobs with a face where `subject` says (shares of the picture): an oval of
 * skin `size` of the picture's height tall, two dark eyes and a mouth.
 */
export async function makeSubjectPicture(file: string, width: number, height: number, subject: { x: number; y: number }, size = 0.16) {
  const faceHeight = Math.round(height * size);
  const faceWidth = Math.round(faceHeight * 0.8);
  const face = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${faceWidth}" height="${faceHeight}">` +
      `<ellipse cx="${faceWidth / 2}" cy="${faceHeight / 2}" rx="${faceWidth / 2}" ry="${faceHeight / 2}" fill="rgb(${SKIN.r},${SKIN.g},${SKIN.b})"/>` +
      `<circle cx="${faceWidth * 0.32}" cy="${faceHeight * 0.4}" r="${faceWidth * 0.08}" fill="#2a1a12"/>` +
      `<circle cx="${faceWidth * 0.68}" cy="${faceHeight * 0.4}" r="${faceWidth * 0.08}" fill="#2a1a12"/>` +
      `<rect x="${faceWidth * 0.3}" y="${faceHeight * 0.7}" width="${faceWidth * 0.4}" height="${faceHeight * 0.06}" fill="#8a3030"/>` +
      `</svg>`,
  );
  const blobs = await sharp({
    create: { width: 24, height: Math.max(2, Math.round((24 * height) / width)), channels: 3, background: "#7a8088" },
  })
    .raw()
    .toBuffer({ resolveWithObject: true });
  // A little texture in the background, grey and unsaturated, so the face is what stands out.
  for (let i = 0; i < blobs.data.length; i += 3) {
    const shade = 110 + ((i * 7919) % 37);
    blobs.data[i] = shade;
    blobs.data[i + 1] = shade + 4;
    blobs.data[i + 2] = shade + 8;
  }
  const background = await sharp(blobs.data, { raw: blobs.info }).resize(width, height, { kernel: "cubic" }).png().toBuffer();
  await sharp(background)
    .composite([{ input: face, left: Math.round(subject.x * width - faceWidth / 2), top: Math.round(subject.y * height - faceHeight / 2) }])
    .toFile(file);
  return { file, face: { width: faceWidth / width, height: faceHeight / height } };
}

/** How many of a decoded frame's RGB pixels are skin, and the box around them (shares of the frame). */
export function skinIn(rgb: Buffer, width: number, height: number) {
  let count = 0;
  let [left, top, right, bottom] = [1, 1, 0, 0];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      const [r, g, b] = [rgb[at]!, rgb[at + 1]!, rgb[at + 2]!];
      if (Math.abs(r - SKIN.r) < 28 && Math.abs(g - SKIN.g) < 28 && Math.abs(b - SKIN.b) < 28) {
        count += 1;
        left = Math.min(left, x / width);
        right = Math.max(right, (x + 1) / width);
        top = Math.min(top, y / height);
        bottom = Math.max(bottom, (y + 1) / height);
      }
    }
  }
  return { count, left, top, right, bottom };
}
