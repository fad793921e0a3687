import { describe, expect, test } from "vitest";
import { introCard, outroCard } from "~/domain/montage-copy";

describe("title card copy", () => {
  test("the intro names the recipients and the occasion", () => {
    expect(introCard({ title: "", occasion: "birthday", recipients: [{ firstName: "Ana", lastName: "Silva" }] })).toEqual({
      heading: "Ana's birthday",
      subheading: "From all of us, with love",
    });
    expect(introCard({ title: "", occasion: "memorial", recipients: [{ firstName: "James" }] })).toEqual({
      heading: "James' memorial",
      subheading: "In loving memory",
    });
  });
  test("the event's own title and a custom occasion win", () => {
    expect(introCard({ title: " For Grandma ", occasion: "birthday", recipients: [] }).heading).toBe("For Grandma");
    expect(introCard({ title: "", occasion: "other", occasionOther: "promotion", recipients: [{ firstName: "Bo" }] }).heading).toBe(
      "Bo's promotion",
    );
    expect(introCard({ title: "", occasion: "birthday", recipients: [] }).heading).toBe("someone special's birthday");
  });
  test("the outro lists contributors once each, and counts the rest", () => {
    expect(outroCard([])).toEqual({ heading: "With love", subheading: "from everyone who took part" });
    expect(outroCard(["Ana", " Bo ", "Ana"]).subheading).toBe("Ana and Bo");
    const many = ["A", "B", "C", "D", "E", "F", "G", "H"];
    expect(outroCard(many).subheading).toBe("A, B, C, D, E, F and 2 others");
    expect(outroCard(many.slice(0, 7)).subheading).toBe("A, B, C, D, E, F and 1 other");
  });
});
