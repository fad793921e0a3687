import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "~": path.resolve(__dirname, "app") };

export default defineConfig({
  resolve: { alias },
  test: {
    globals: true,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.{ts,tsx}", "app/**/*.test.{ts,tsx}"],
          environment: "node",
          setupFiles: ["tests/support/fail-on-console-error.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "media",
          include: ["tests/media/**/*.test.ts"],
          environment: "node",
          setupFiles: ["tests/support/fail-on-console-error.ts"],
          // Each test makes its media with ffmpeg and sharp, then transcodes it.
          testTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/support/global-database.ts"],
          setupFiles: ["tests/support/fail-on-console-error.ts"],
          // One server and one database for the whole project: files run one after another.
          pool: "forks",
          poolOptions: { forks: { singleFork: true } },
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          globalSetup: ["tests/support/global-database.ts"],
          pool: "forks",
          poolOptions: { forks: { singleFork: true } },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
