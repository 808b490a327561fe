// A child process for the crash and lock tests (bundled by build-child.ts, run by node).
//   durability <book> <start>  add positions start, start+1, ... forever, printing
//                              "stored <sfen>" after each thoughts.add returns
//   batches <book> <start>     add batches of 100 positions, printing "batch <first>" after each
//   hold <book>                open for writing, print "ready", wait to be killed
//   open <book>                try to open for writing; print the outcome as JSON
import { BookStore } from "../book-store.js";
import { fakeThought } from "../../bench/books/fake-thought.js";

const [mode, book, arg] = process.argv.slice(2);
if (!book) throw new Error("usage: child <mode> <book> [arg]");

if (mode === "durability") {
  const store = BookStore.open(book);
  for (let i = Number(arg ?? 0); ; i++) {
    const p = fakeThought(i);
    store.thoughts.add(p);
    process.stdout.write(`stored ${p.sfen}\n`);
  }
} else if (mode === "batches") {
  const store = BookStore.open(book);
  for (let i = Number(arg ?? 0); ; i += 100) {
    store.thoughts.addBatch(Array.from({ length: 100 }, (_, k) => fakeThought(i + k)));
    process.stdout.write(`batch ${i}\n`);
  }
} else if (mode === "hold") {
  BookStore.open(book);
  process.stdout.write("ready\n");
  setInterval(() => {}, 1 << 30);
} else if (mode === "open") {
  try {
    BookStore.open(book).close();
    process.stdout.write(JSON.stringify({ ok: true }) + "\n");
  } catch (e) {
    const err = e as Error & { holder?: unknown };
    process.stdout.write(JSON.stringify({ ok: false, name: err.name, message: err.message, holder: err.holder }) + "\n");
  }
} else {
  throw new Error(`unknown mode ${mode}`);
}
