// `horu peta` from a bundle of its own (dist/horu-peta.cjs, chosen by bin/horu.js): users
// time the whole process against YaneuraOu's, and loading every other command's code would
// add a quarter second and 25 MiB to it.
import { petaCommand } from "./commands/peta.js";
import { main } from "./run.js";

main([petaCommand], process.argv.slice(2));
