import { Transform } from "node:stream";

/**
 * React 18.3's streaming renderer pads its 2 KB write buffer with NUL bytes when
 * a multi-byte character (an en dash, an emoji) does not fit at the end of it
 * (facebook/react#31134, fixed in React 19). HTML never needs a NUL byte, so they
 * are dropped on the way out; chunks without one pass through untouched.
 */
export function stripNulBytes() {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (chunk.indexOf(0) === -1) return done(null, chunk);
      done(null, Buffer.from(chunk.filter((byte) => byte !== 0)));
    },
  });
}
