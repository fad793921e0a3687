// heic-decode ships no types: what app/media/heic.server.ts uses of it.
declare module "heic-decode" {
  type Decoded = { width: number; height: number; data: Uint8ClampedArray };
  function decode(input: { buffer: Uint8Array }): Promise<Decoded>;
  export default decode;
}
