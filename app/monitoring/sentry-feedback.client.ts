import { addIntegration, feedbackIntegration } from "@sentry/remix";

/** Added after hydration from the app's bundle, never from Sentry's CDN (as feedbackAsyncIntegration would). */
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
