import { describe, expect, it } from "vitest";
import { folderOf, nameStart, resolveIn } from "./export-path";

describe("the export dialog's path helpers", () => {
  it("find a book's folder", () => {
    expect(folderOf("/home/u/books/main.horu")).toBe("/home/u/books");
    expect(folderOf("/main.horu")).toBe("/");
    expect(folderOf("C:\\books\\main.horu")).toBe("C:\\books");
    expect(folderOf("C:\\main.horu")).toBe("C:\\");
    expect(folderOf("main.horu")).toBe(".");
    // Where the top bar cuts the file's name from its folder.
    expect(["/home/u/books/main.horu", "C:\\books\\main.horu", "main.horu"].map(nameStart)).toEqual([14, 9, 0]);
  });

  it("resolve a relative path in the folder, steps out of it included", () => {
    expect(resolveIn("/tmp/books", "main.db")).toBe("/tmp/books/main.db");
    expect(resolveIn("/tmp/books", "../x.db")).toBe("/tmp/x.db");
    expect(resolveIn("/tmp/books", "./sub//x.db")).toBe("/tmp/books/sub/x.db");
    expect(resolveIn("/tmp/books", "../../../../x.db")).toBe("/x.db");
    expect(resolveIn("/", "x.db")).toBe("/x.db");
    expect(resolveIn("C:\\books", "..\\x.db")).toBe("C:\\x.db");
    expect(resolveIn("C:\\books", "sub/x.db")).toBe("C:\\books\\sub\\x.db");
  });

  it("keep an absolute path where it points", () => {
    expect(resolveIn("/tmp/books", "/etc/x.db")).toBe("/etc/x.db");
    expect(resolveIn("/tmp/books", "/etc/../x.db")).toBe("/x.db");
    expect(resolveIn("C:\\books", "D:\\out\\x.db")).toBe("D:\\out\\x.db");
  });
});
