import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import durations from "./file-durations.json";

// The order test files start in. Two workers share the files; a long file that starts last keeps
// one of them busy long after the other has finished, so the longest start first. How long a file
// takes comes from this checkout's last run when it has one (vitest's own cache), else from
// file-durations.json (written by `node scripts/test-durations.js`): a fresh clone, as in CI, has no
// cache. A file in neither is new, and starts first, as vitest's own order does.

const root = path.resolve(__dirname, "../..");
const known: Record<string, number> = durations;

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const milliseconds = (file: TestSpecification) => {
      const relative = path.relative(root, file.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${file.project.name}:${relative}`);
      if (cached) return cached.duration;
      const seconds = known[relative];
      return seconds === undefined ? Infinity : seconds * 1000;
    };
    return [...files].sort((a, b) => milliseconds(b) - milliseconds(a));
  }
}
