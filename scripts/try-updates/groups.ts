/**
 * The update groups of `.github/dependabot.yml` (its npm entry), applied to
 * package.json: which of our packages each group moves, and to what npm
 * would install for it today. A major held back by the `ignore` rules is
 * tried at the newest version of the installed major (`name@^major`, made
 * that version by `newestInRange`), the rest at `latest`: what Dependabot's
 * grouped pull request would offer.
 */
import semver from "semver";
import YAML from "yaml";

interface DependabotNpmEntry {
  "package-ecosystem": string;
  directory: string;
  groups?: Record<string, { patterns: string[]; "exclude-patterns"?: string[] }>;
  ignore?: { "dependency-name": string; "update-types"?: string[] }[];
}

export interface UpdateGroup {
  name: string;
  /** What `npm install` is given: `name@latest`, or `name@^major` for a held-back major. */
  specs: string[];
  /** The packages whose major is held back (their `ignore` rule). */
  held: string[];
}

interface PackageJson {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** Dependabot's patterns: `*` stands for any characters, the rest is literal. */
function matches(pattern: string, name: string): boolean {
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${source}$`).test(name);
}

/**
 * Each group of the npm entry for `/`, in the file's order: a package goes to
 * the first group that matches it, as Dependabot assigns it. `installed`
 * gives a package's installed version (for its major).
 */
export function updateGroups(
  dependabotYaml: string,
  pkg: PackageJson,
  installed: (name: string) => string,
  { liftHolds = false } = {},
): UpdateGroup[] {
  const config = YAML.parse(dependabotYaml) as { updates: DependabotNpmEntry[] };
  const npm = config.updates.find((entry) => entry["package-ecosystem"] === "npm" && entry.directory === "/");
  if (!npm?.groups) throw new Error(".github/dependabot.yml has no npm entry for / with groups");
  // Aliases (`npm:other@1.2.3`) are twins pinned on purpose; Dependabot does not move them either.
  const ours = Object.entries({ ...pkg.dependencies, ...pkg.devDependencies })
    .filter(([, range]) => !range.startsWith("npm:"))
    .map(([name]) => name);
  const majorHeld = (name: string) =>
    !liftHolds &&
    (npm.ignore ?? []).some(
      (rule) =>
        matches(rule["dependency-name"], name) &&
        (rule["update-types"] ?? []).includes("version-update:semver-major"),
    );
  const taken = new Set<string>();
  return Object.entries(npm.groups).map(([name, group]) => {
    const members = ours.filter(
      (dep) =>
        !taken.has(dep) &&
        group.patterns.some((pattern) => matches(pattern, dep)) &&
        !(group["exclude-patterns"] ?? []).some((pattern) => matches(pattern, dep)),
    );
    for (const dep of members) taken.add(dep);
    const held = members.filter(majorHeld);
    const specs = members.map((dep) =>
      held.includes(dep) ? `${dep}@^${installed(dep).split(".")[0]}` : `${dep}@latest`,
    );
    return { name, specs, held };
  });
}

/**
 * The newest version `npm view <name>@<range> version --json` lists. Given the range itself, npm
 * may install an older version in it, the one a peer requirement elsewhere in the tree takes
 * (`@react-router/dev` brings a `@react-router/node` that requires one `react-router` exactly).
 */
export function newestInRange(viewJson: string): string {
  const listed = JSON.parse(viewJson) as string | string[];
  const newest = semver.rsort([listed].flat().filter((version) => semver.valid(version)))[0];
  if (!newest) throw new Error(`npm view listed no version: ${viewJson}`);
  return newest;
}
