import { describe, expect, it } from "vitest";
import { relatedByTags } from "../src/lib/related";

const mk = (tags: string[]) => ({ data: { tags } });

describe("relatedByTags", () => {
  it("ranks by shared tags", () => {
    const a = mk(["ink", "paper"]), b = mk(["ink"]), c = mk(["clay"]);
    expect(relatedByTags(a, [a, b, c], 1)).toEqual([b]);
  });
});
