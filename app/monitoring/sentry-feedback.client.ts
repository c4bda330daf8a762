import { addIntegration, feedbackIntegration } from "@sentry/remix";

/**
 * A chunk of the app's own bundle, added after hydration: never from Sentry's CDN (as
 * feedbackAsyncIntegration would), never part of a page's initial JavaScript.
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
