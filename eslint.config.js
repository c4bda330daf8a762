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
      "bench/baseline/build/",
      "bench/baseline/build-routes-*/",
      "bench/results/",
      "node_modules/",
      "test-results/",
      "playwright-report/",
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
