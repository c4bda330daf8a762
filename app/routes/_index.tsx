// Relative: the benchmark's bare baseline builds this page without the `~` alias.
import { site } from "../site";

export default function Index() {
  return (
    <main>
      <h1>{site.title}</h1>
      <p>
        This server-rendered Remix app is ready for the product&apos;s routes. Error pages, the 404 page,
        error digests, structured logs, tracing and security headers are already in place.
      </p>
      <ul>
        <li>
          Pages go in <code>app/routes/</code>, one file per route (<code>app/routes/orders.$id.tsx</code>{" "}
          serves <code>/orders/:id</code>).
        </li>
        <li>
          A route reads its data in a <code>loader</code> and handles form posts in an <code>action</code>,
          both exported from the route file; see <code>docs/adding-a-route.md</code>.
        </li>
        <li>
          Monitoring lives in <code>app/monitoring/</code>; Sentry starts from <code>server/boot.ts</code> and
          is off until <code>SENTRY_DSN</code> is set.
        </li>
      </ul>
    </main>
  );
}
