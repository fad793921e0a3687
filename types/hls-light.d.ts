// hls.js ships its light build (no subtitles, no DRM) without types of its own: it is the same API.
declare module "hls.js/dist/hls.light.mjs" {
  import Hls from "hls.js";
  export default Hls;
}
