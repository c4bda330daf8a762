// @ts-check
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "build/",
      "build-e2e/",
      "build-bench/",
      "build-bench-*/",
      // scaffold-only (the benchmark's output: npm run init removes these lines with bench/)
      "bench/baseline/build/",
      "bench/baseline/build-routes-*/",
      "bench/results/",
      // /scaffold-only
      "node_modules/",
      "test-results/",
      "playwright-report/",
      // React Router's generated route types, in a tree upgraded to it: generated, not linted.
      ".react-router/",

      // upgrade-only (npm run init removes these lines with the upgrade: docs/day-one.md)

      // Files the upgrade puts in place; checked once they are (npm run test:upgrade).
      "scripts/upgrade-react-router/react-router-8/",

      // /upgrade-only
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // server/ may import app/ (through `~/`), never the other way round: app/ is
    // what Remix builds, server/ the boot around it. What both need lives in app/.
    files: ["app/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(\\.\\./)+server(/|$)|^~/\\.\\./",
              message: "app/ must not import from server/: move what both need under app/ (e.g. app/http/).",
            },
          ],
        },
      ],
    },
  },
  {
    // React code only: Playwright fixtures also call a function named `use`.
    files: ["app/**/*.tsx", "e2e/fixtures/**/*.tsx"],
    plugins: { "react-hooks": reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ["**/*.{js,mjs}"],
    languageOptions: {
      globals: Object.fromEntries(
        ["process", "console", "URL", "setTimeout", "clearTimeout", "setInterval"].map((name) => [
          name,
          "readonly",
        ]),
      ),
    },
  },
);
