/**
 * Which Debian mirror this machine's apt is configured with, so that the
 * stand-in base image (./build.ts) is bootstrapped from the same place apt
 * installs from (the only Debian mirror our CI machine reaches).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export interface AptSource {
  uri: string;
  suites: string[];
}

/** Entries of a one-line `sources.list` file: `deb [options] uri suite [components…]`. */
export function parseOneLineSources(text: string): AptSource[] {
  return text.split("\n").flatMap((raw) => {
    const line = raw.replace(/#.*/, "").trim();
    const match = /^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+(\S+)/.exec(line);
    return match ? [{ uri: match[1]!, suites: [match[2]!] }] : [];
  });
}

/** Entries of a deb822 `.sources` file: stanzas of `Field: value` separated by blank lines. */
export function parseDeb822Sources(text: string): AptSource[] {
  return text.split(/\n\s*\n/).flatMap((stanza) => {
    const fields = new Map<string, string>();
    for (const line of stanza.split("\n")) {
      const match = /^([A-Za-z-]+):\s*(.*)$/.exec(line);
      if (match && !line.startsWith("#")) fields.set(match[1]!.toLowerCase(), match[2]!.trim());
    }
    const types = (fields.get("types") ?? "").split(/\s+/);
    if (!types.includes("deb") || fields.get("enabled")?.toLowerCase() === "no") return [];
    const suites = (fields.get("suites") ?? "").split(/\s+/).filter(Boolean);
    return (fields.get("uris") ?? "").split(/\s+/).flatMap((uri) => (uri ? [{ uri, suites }] : []));
  });
}

/** The first configured mirror that serves `suite` itself (not `-updates` or `-security`). */
export function mirrorFor(sources: AptSource[], suite: string): string | undefined {
  return sources.find((source) => source.suites.includes(suite))?.uri;
}

/** The apt sources of this machine: /etc/apt/sources.list and sources.list.d/*.list|*.sources. */
export function machineAptSources(root = "/etc/apt"): AptSource[] {
  const read = (file: string) => {
    try {
      return readFileSync(file, "utf8");
    } catch {
      return "";
    }
  };
  const dir = path.join(root, "sources.list.d");
  let files: string[] = [];
  try {
    files = readdirSync(dir).sort();
  } catch {
    files = [];
  }
  return [
    ...parseOneLineSources(read(path.join(root, "sources.list"))),
    ...files.flatMap((file) =>
      file.endsWith(".list")
        ? parseOneLineSources(read(path.join(dir, file)))
        : file.endsWith(".sources")
          ? parseDeb822Sources(read(path.join(dir, file)))
          : [],
    ),
  ];
}
