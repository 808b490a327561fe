// `horu`: the headless command line over the same services as the GUI (docs/DESIGN.md §10).
import { commands } from "./commands/index.js";
import { main } from "./run.js";

main(commands, process.argv.slice(2));
