// Preloaded (`--import`) by bench/channel-injection.ts for its "off" side only: the SDK skips its
// runtime diagnostics-channel injection when this marker says it is unavailable, the same as
// `enableRuntimeChannelInjection: false`, without a switch in the app.
globalThis.__SENTRY_ORCHESTRION__ = { runtimeUnavailable: true };
