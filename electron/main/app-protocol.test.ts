// The app:// protocol handler, without the Electron binary (not downloaded
// here: ELECTRON_SKIP_BINARY_DOWNLOAD): only files under the renderer's folder, never a
// traversal out of it, and the CSP header on every answer.
import { describe, expect, it } from "vitest";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { APP_URL, appFilePath, appProtocolHandler, serveAppFile } from "./app-protocol.js";
import { APP_CSP } from "./shell.js";
import { tempDir } from "../testing/paths.js";

function site(): { root: string; secret: string } {
  const dir = tempDir();
  const root = path.join(dir, "renderer");
  mkdirSync(path.join(root, "assets"), { recursive: true });
  writeFileSync(path.join(root, "index.html"), "<!doctype html><title>horu</title>");
  writeFileSync(path.join(root, "assets", "app.js"), "console.log(1)");
  writeFileSync(path.join(root, "assets", "a b.css"), "body{}");
  const secret = path.join(dir, "secret.txt");
  writeFileSync(secret, "not for the page");
  symlinkSync(secret, path.join(root, "assets", "link.txt"));
  return { root, secret };
}

describe("app://horu/", () => {
  it("maps URLs to files under the renderer folder only", () => {
    const root = "/app/dist/renderer";
    expect(APP_URL).toBe("app://horu/index.html");
    expect(appFilePath(root, "app://horu/")).toBe("/app/dist/renderer/index.html");
    expect(appFilePath(root, "app://horu/assets/app.js?v=1#x")).toBe("/app/dist/renderer/assets/app.js");
    expect(appFilePath(root, "app://horu/assets/a%20b.css")).toBe("/app/dist/renderer/assets/a b.css");
    // The URL parser folds plain and dotted-encoded `..` away; what is left still never leaves the root.
    for (const bad of [
      "app://horu/..%2f..%2fetc%2fpasswd",
      "app://horu/assets/..%2f..%2f..%2fsecret.txt",
      "app://horu/%2e%2e%5c%2e%2e%5csecret.txt",
      "app://horu/assets/%00.js",
      "app://horu/%E0%A4%A",
      "app://other/index.html",
      "file:///app/dist/renderer/index.html",
      "https://horu/index.html",
      "not a url",
    ])
      expect(appFilePath(root, bad), bad).toBeNull();
    for (const folded of ["app://horu/../../etc/passwd", "app://horu/a/../../../../etc/passwd", "app://horu/%2e%2e/%2e%2e/etc/passwd"]) {
      const p = appFilePath(root, folded);
      expect(p === null || p.startsWith(root + path.sep), folded).toBe(true);
    }
  });

  it("serves the files with their type, the CSP and nosniff; refuses traversal, symbolic links out and other methods", async () => {
    const { root } = site();
    const ok = await serveAppFile(root, APP_CSP, { url: "app://horu/index.html", method: "GET" });
    expect(ok.status).toBe(200);
    expect(ok.headers["Content-Type"]).toBe("text/html; charset=utf-8");
    expect(ok.headers["Content-Security-Policy"]).toBe(APP_CSP);
    expect(ok.headers["X-Content-Type-Options"]).toBe("nosniff");
    expect(Buffer.from(ok.body).toString()).toContain("<title>horu</title>");
    expect((await serveAppFile(root, APP_CSP, { url: "app://horu/assets/app.js", method: "GET" })).headers["Content-Type"]).toMatch(
      /^text\/javascript/,
    );
    for (const url of [
      "app://horu/%2e%2e/secret.txt",
      "app://horu/..%2fsecret.txt",
      "app://horu/assets/link.txt", // a symbolic link to a file outside
      "app://horu/missing.js",
      "app://horu/assets", // a folder
    ]) {
      const r = await serveAppFile(root, APP_CSP, { url, method: "GET" });
      expect(r.status, url).toBe(404);
      expect(String(r.body)).not.toContain("not for the page");
      expect(r.headers["Content-Security-Policy"], url).toBe(APP_CSP);
    }
    expect((await serveAppFile(root, APP_CSP, { url: "app://horu/index.html", method: "POST" })).status).toBe(405);
  });

  it("is a protocol.handle handler: Request in, Response out, with the CSP header", async () => {
    const { root } = site();
    const handle = appProtocolHandler(root, APP_CSP);
    const page = await handle(new Request("app://horu/"));
    expect(page.status).toBe(200);
    expect(page.headers.get("Content-Security-Policy")).toBe(APP_CSP);
    expect(await page.text()).toContain("<title>horu</title>");
    const out = await handle(new Request("app://horu/..%2f..%2fsecret.txt"));
    expect(out.status).toBe(404);
    expect(await out.text()).not.toContain("not for the page");
  });
});
