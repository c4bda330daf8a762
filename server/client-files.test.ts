import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { clientFiles, mayServe, onlyClientFiles } from "./client-files";

const root = mkdtempSync(path.join(tmpdir(), "built-files-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
mkdirSync(path.join(root, "assets/nested"), { recursive: true });
mkdirSync(path.join(root, "docs"));
for (const file of ["robots.txt", "assets/entry.js", "assets/nested/a b.css", "docs/index.html", ".hidden"])
  writeFileSync(path.join(root, file), "x");
symlinkSync(path.join(root, "robots.txt"), path.join(root, "linked.txt"));

describe("the client folder's paths, read once", () => {
  const paths = clientFiles(root)!;

  it("names every file and folder by its URL path, dotfiles and links included", () => {
    expect([...paths.files].sort()).toEqual([
      "/.hidden",
      "/assets/entry.js",
      "/assets/nested/a b.css",
      "/docs/index.html",
      "/linked.txt",
      "/robots.txt",
    ]);
    expect([...paths.folders].sort()).toEqual(["/assets", "/assets/nested", "/docs"]);
  });

  it("is empty for a folder that is not there, and none at all for one it cannot read whole", () => {
    const missing = clientFiles(path.join(root, "missing"))!;
    expect([missing.files.size, missing.folders.size]).toEqual([0, 0]);
    expect(clientFiles(path.join(root, "robots.txt"))).toBeUndefined();
  });

  it("lets serve-static look up a file, a folder (its redirect) and a folder's index.html", () => {
    for (const pathname of ["/robots.txt", "/assets/entry.js", "/assets", "/docs/", "/.hidden"])
      expect(mayServe(pathname, paths), pathname).toBe(true);
  });

  it("sends a page, a data request or anything else the folder lacks on to the app", () => {
    for (const pathname of [
      "/",
      "/r0/items/1",
      "/r0/items/1.data",
      "/_root.data",
      "/assets/",
      "/robots.txt/",
      "/ROBOTS.TXT",
    ])
      expect(mayServe(pathname, paths), pathname).toBe(false);
  });

  it("leaves what serve-static decodes or normalises to serve-static", () => {
    const judged = [
      "/assets/nested/a%20b.css",
      "//robots.txt",
      "/assets/../robots.txt",
      "/./robots.txt",
      "/a\\b",
      "http://host/robots.txt",
      "*",
    ];
    for (const pathname of judged) expect(mayServe(pathname, paths), pathname).toBe(true);
  });
});

describe("onlyClientFiles", () => {
  it("asks the lookup for what the folder held at start, and passes anything else on untouched", () => {
    const asked: string[] = [];
    const handler = onlyClientFiles((request, _response, next) => {
      asked.push(request.url!);
      next();
    }, root);
    writeFileSync(path.join(root, "late.txt"), "x");
    let passedOn = 0;
    for (const url of [
      "/robots.txt?v=1",
      "/robots.txt#top",
      "/r0/items/1.data?_routes=a",
      "/late.txt",
      "/assets",
    ])
      handler({ url } as never, {} as never, () => void passedOn++);
    expect(asked).toEqual(["/robots.txt?v=1", "/robots.txt#top", "/assets"]);
    expect(passedOn).toBe(5);
    expect(handler.name).toBe("serveStatic");
  });

  it("asks the lookup for its mount point without a slash (its redirect), and not for the mount point itself", () => {
    const asked: string[] = [];
    const handler = onlyClientFiles(
      (request, _response, next) => void (asked.push(request.originalUrl!), next()),
      root,
    );
    for (const originalUrl of ["/base", "/base/", "/base?x=1"])
      handler({ url: "/", originalUrl }, {}, () => {});
    expect(asked).toEqual(["/base", "/base?x=1"]);
  });

  it("leaves a folder it cannot read whole to the lookup, every request", () => {
    const lookUp = () => {};
    expect(onlyClientFiles(lookUp, path.join(root, "robots.txt"))).toBe(lookUp);
  });
});
