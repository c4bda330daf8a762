/**
 * The README's map ("What is where") is the one way in: it names every top-level folder (in its
 * block, or as `folder/` in the section's prose) and every file at the top of `server/`, so a
 * folder or a server file added without a line there fails `npm run lint:docs`.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { topLevelFolders, type Problem } from "./check-tree";

const HEADING = "## What is where";
/** The server's own code: tests and type declarations are named by what they test. */
const SERVER_FILE = /^(?!.*\.test\.)(?!.*\.d\.ts$).*\.[cm]?[jt]sx?$/;

/** The map's section, the first names of its block's unindented lines, and those indented under `server/`. */
export function readMap(readme: string): { section: string; top: Set<string>; server: Set<string> } {
  const at = readme.indexOf(`\n${HEADING}\n`);
  const rest = at === -1 ? "" : readme.slice(at + HEADING.length + 2);
  const section = rest.split(/\n## /)[0]!;
  const block = /^```\n([\s\S]*?)^```$/m.exec(section)?.[1] ?? "";
  const top = new Set<string>();
  const server = new Set<string>();
  let parent = "";
  for (const line of block.split("\n")) {
    // A line's names end at two spaces: "Dockerfile, deploy/        the image".
    const names = line
      .trim()
      .split(/\s{2,}/)[0]!
      .split(/,\s*/);
    if (/^\S/.test(line)) {
      parent = names[0]!;
      names.forEach((name) => top.add(name));
    } else if (/^ {2}\S/.test(line) && parent === "server/") names.forEach((name) => server.add(name));
  }
  return { section, top, server };
}

/** What the map leaves out, as problems of README.md. */
export function checkReadmeMap(root: string): Problem[] {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const { section, top, server } = readMap(readme);
  const line = readme.slice(0, readme.indexOf(HEADING)).split("\n").length;
  const problem = (message: string): Problem => ({ file: "README.md", line, message });
  const missingFolders = [...topLevelFolders(root)]
    .filter((folder) => !top.has(`${folder}/`) && !section.includes(`\`${folder}/\``))
    .sort();
  const missingFiles = readdirSync(path.join(root, "server"), { withFileTypes: true })
    .filter((entry) => entry.isFile() && SERVER_FILE.test(entry.name) && !server.has(entry.name))
    .map((entry) => entry.name)
    .sort();
  return [
    ...missingFolders.map((folder) =>
      problem(`"What is where" does not name the top-level folder ${folder}/`),
    ),
    ...missingFiles.map((file) => problem(`"What is where" does not name server/${file}`)),
  ];
}
