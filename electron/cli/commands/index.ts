// The registry of `horu` subcommands, in the order `horu --help` lists them.
import type { Command } from "../command.js";
import { backupCommand } from "./backup.js";
import { benchCommand } from "./bench.js";
import { bookCommand } from "./book.js";
import { digCommand } from "./dig.js";
import { enginesCommand } from "./engines.js";
import { engineCommand } from "./engine.js";
import { exportCommand } from "./export.js";
import { importCommand } from "./import.js";
import { matchCommand } from "./match.js";
import { convertCommand } from "./convert.js";
import { selectCommand } from "./select.js";
import { perftCommand } from "./perft.js";
import { petaCommand } from "./peta.js";
import { webCommand } from "./web.js";

export const commands: Command[] = [
  digCommand,
  enginesCommand,
  selectCommand,
  importCommand,
  exportCommand,
  convertCommand,
  bookCommand,
  matchCommand,
  backupCommand,
  perftCommand,
  petaCommand,
  webCommand,
  engineCommand,
  benchCommand,
];
