import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

// Each decision record opens with its date and its status, and a later one that changes it says so
// on both sides: the later one's `Supersedes:`/`Amends:` line, the earlier one's status. The index
// (docs/decisions/README.md) lists every record with the same date and status, and says why a
// number has no record. See docs/decisions/000-template.md.

const DIR = path.resolve(__dirname, "../../docs/decisions");
const INDEX = fs.readFileSync(path.join(DIR, "README.md"), "utf8");

interface Decision {
  number: string;
  file: string;
  fields: Record<string, string>;
}

const numbersIn = (text = "") => [...text.matchAll(/\b\d{3}\b/g)].map((m) => m[0]);

/** The `Name: value` lines right after the title. */
function headerFields(markdown: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of markdown.split("\n").slice(2)) {
    const field = /^(Date|Status|Supersedes|Amends): (.+)$/.exec(line);
    if (!field) break;
    fields[field[1]!] = field[2]!;
  }
  return fields;
}

const decisions: Decision[] = fs
  .readdirSync(DIR)
  .filter((file) => /^\d{3}-.+\.md$/.test(file) && !file.startsWith("000-"))
  .sort()
  .map((file) => ({ number: file.slice(0, 3), file, fields: headerFields(fs.readFileSync(path.join(DIR, file), "utf8")) }));

const STATUS = /^(accepted|superseded by \d{3})(; (partly superseded|amended) by \d{3}((, \d{3})* and \d{3})?)*$/;

describe.each(decisions)("decision $file", ({ file, fields }) => {
  test("opens with its date and its status", () => {
    expect(fields.Date, file).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(fields.Status, file).toMatch(STATUS);
  });

  test("is listed in the index with the same date and status", () => {
    const row = INDEX.split("\n").find((line) => line.includes(`](${file})`));
    expect(row, `no row for ${file} in docs/decisions/README.md`).toBeDefined();
    expect(row).toContain(`| ${fields.Date} | ${fields.Status} |`);
  });
});

describe("decisions that change earlier ones", () => {
  test("each earlier decision's status names every later one that supersedes or amends it, and no other", () => {
    const said: Record<string, string[]> = {};
    for (const later of decisions) {
      const changed = [...numbersIn(later.fields.Supersedes), ...numbersIn(later.fields.Amends)];
      for (const earlier of new Set(changed)) (said[earlier] ??= []).push(later.number);
    }
    for (const decision of decisions) {
      expect(numbersIn(decision.fields.Status).sort(), `status of ${decision.file}`).toEqual((said[decision.number] ?? []).sort());
    }
  });

  test("a decision superseded in part or whole is named by a later Supersedes line, an amended one by an Amends line", () => {
    for (const decision of decisions) {
      const status = decision.fields.Status ?? "";
      for (const [, kind, list] of status.matchAll(/(superseded|amended) by ([\d, and]+)/g)) {
        for (const later of numbersIn(list)) {
          const line = decisions.find((d) => d.number === later)?.fields[kind === "amended" ? "Amends" : "Supersedes"];
          expect(numbersIn(line), `${later} ${kind === "amended" ? "amends" : "supersedes"} ${decision.number}`).toContain(decision.number);
        }
      }
    }
  });
});

describe("the index of decisions", () => {
  test("links only to records that exist", () => {
    const linked = [...INDEX.matchAll(/\]\((\d{3}-[^)]+\.md)\)/g)].map((m) => m[1]!);
    expect(linked.filter((file) => !fs.existsSync(path.join(DIR, file)))).toEqual([]);
  });

  test("says why each number below the highest has no record", () => {
    const taken = new Set(decisions.map((d) => d.number));
    const highest = Number(decisions[decisions.length - 1]!.number);
    const unused = Array.from({ length: highest }, (_, i) => String(i + 1).padStart(3, "0")).filter((n) => !taken.has(n));
    const explained = INDEX.split(/^## Numbers with no decision$/m)[1] ?? "";
    expect(unused.filter((n) => !numbersIn(explained).includes(n))).toEqual([]);
  });
});
