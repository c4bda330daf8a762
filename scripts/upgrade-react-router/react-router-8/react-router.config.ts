import type { Config } from "@react-router/dev/config";

/** React Router's options, in one place (the test builds extend them: e2e/fixtures/react-router.config.ts). */
export default {
  appDirectory: "app",
  buildDirectory: "build",
  ssr: true,
} satisfies Config;
