// `horu`: the headless command line over the same services as the GUI (DESIGN 10).
import { commands } from "./commands/index.js";
import { UsageError } from "./command.js";

function help(): string {
  const width = Math.max(...commands.map((c) => c.name.length), 4);
  return [
    "usage: horu <command> [options]",
    "",
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    "`horu <command> --help` shows a command's options.",
  ].join("\n");
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(help() + "\n");
    return name === undefined ? 2 : 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`horu: unknown command '${name}'\n\n${help()}\n`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(command.usage + "\n");
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`horu ${name}: ${e.message}\n\n${command.usage}\n`);
      return 2;
    }
    process.stderr.write(`horu ${name}: ${e instanceof Error ? e.message : String(e)}\n`);
    if (process.env.HORU_DEBUG && e instanceof Error) process.stderr.write(`${e.stack}\n`);
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`horu: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  },
);
