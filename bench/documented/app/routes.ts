import type { RouteConfig, RouteConfigEntry } from "@remix-run/route-config";
import baselineRoutes from "../../baseline/app/routes";

// The baseline's route table, unchanged (same paths, ids, order and generated
// routes): each file is the baseline's own, reached from this app directory,
// under the id Remix gives it there (its path without the extension).
const fromBaseline = (entry: RouteConfigEntry): RouteConfigEntry => ({
  ...entry,
  id: entry.id ?? entry.file.replace(/\.[jt]sx?$/, ""),
  file: `../../baseline/app/${entry.file}`,
  children: entry.children?.map(fromBaseline),
});

export default baselineRoutes.map(fromBaseline) satisfies RouteConfig;
