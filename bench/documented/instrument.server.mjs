// Target E of the benchmark (bench/README.md): the server init of Sentry's
// Remix guide, loaded before remix-serve with
// NODE_OPTIONS='--import ./instrument.server.mjs'. The guide writes the DSN
// inline; the benchmark's recorder has a new port per run, so it comes from
// the environment. Nothing else is set: every other option is the SDK's default.
import * as Sentry from "@sentry/remix";

Sentry.init({
  dsn: process.env.SENTRY_DSN,
  // Set tracesSampleRate to 1.0 to capture 100% of transactions for tracing.
  tracesSampleRate: 1.0,
});
