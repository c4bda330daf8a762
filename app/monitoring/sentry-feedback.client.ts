import { addIntegration, feedbackIntegration } from "@sentry/remix";

/**
 * Sentry's user-feedback widget (SENTRY_FEEDBACK=on), in a chunk of its own
 * from the app's bundle, added after hydration: never from Sentry's CDN
 * (feedbackAsyncIntegration would load it from there), and never part of a
 * page's initial JavaScript. Name, email and message are all required.
 */
export function showFeedbackWidget(): void {
  addIntegration(
    feedbackIntegration({
      colorScheme: "system",
      isNameRequired: true,
      isEmailRequired: true,
      showBranding: false,
      // No user is known to the SDK (sendDefaultPii is off): the visitor types both.
      useSentryUser: { name: "", email: "" },
    }),
  );
}
