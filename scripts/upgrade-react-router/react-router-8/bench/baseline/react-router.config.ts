import type { Config } from "@react-router/dev/config";
import { benchRouteCount } from "../../e2e/fixtures/routes";

export default {
  buildDirectory: process.env.BENCH_GENERATED_ROUTES ? `build-routes-${benchRouteCount()}` : "build",
} satisfies Config;
