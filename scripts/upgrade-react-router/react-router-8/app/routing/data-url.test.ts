import { describe, expect, it } from "vitest";
import { pagePathOfDataUrl, ROOT_DATA_PATH } from "./data-url";

describe("pagePathOfDataUrl (React Router 8's single-fetch URLs)", () => {
  it("maps single-fetch URLs to the page they load, trailing slash kept", () => {
    expect(pagePathOfDataUrl(new URL("http://x/a/b.data?_routes=r"))).toBe("/a/b");
    expect(pagePathOfDataUrl(new URL("http://x/_.data"))).toBe("/");
    expect(pagePathOfDataUrl(new URL("http://x/a/b/_.data"))).toBe("/a/b/");
    expect(pagePathOfDataUrl(new URL("http://x/_root.data"))).toBe("/_root");
    expect(pagePathOfDataUrl(new URL("http://x/a/b"))).toBeUndefined();
    expect(pagePathOfDataUrl(new URL(`http://x${ROOT_DATA_PATH}`))).toBe("/");
  });
});
