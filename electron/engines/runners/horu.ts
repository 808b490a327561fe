// The runner of horu's own engine as a built-in engine (bundled as dist/engines/horu.cjs,
// beside its search-thread bundle dist/engines/engine-worker.cjs): the same USI program as
// `horu engine`, started as its own process like every engine.
import { runUsiOnStdio } from "../horu/stdio.js";

void runUsiOnStdio();
