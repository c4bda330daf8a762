/**
 * What `npm run bench` requests, as a function of the route count: the
 * benchmark builds have `routes` generated routes `/r<i>/items/:id`
 * (remix.config.js, `BENCH_GENERATED_ROUTES`), and the page it measures is the
 * one in the middle of them, so that Remix's matching meets about half of the
 * table before it (ranking ties keep the config order) and the 404 all of it.
 */
export interface Workload {
  id: string;
  title: (routes: number) => string;
  method: "GET" | "POST";
  path: (routes: number) => string;
  headers?: Record<string, string>;
  body?: string;
  /** Every response must have this status… */
  status: number;
  /** …and the preflight response must match this (proves both servers serve the same page). */
  expect: RegExp;
}

/** `/r<middle>/items/42`: the generated route in the middle of `routes`. */
export function middlePage(routes: number): string {
  return `/r${Math.floor(routes / 2)}/items/42`;
}

export const WORKLOADS: Workload[] = [
  {
    id: "doc-start",
    title: () => "GET / (document)",
    method: "GET",
    path: () => "/",
    status: 200,
    expect: /<h1>Remix \+ Sentry scaffold<\/h1>/,
  },
  {
    id: "doc-item",
    title: (routes) => `GET ${middlePage(routes)} (document, the generated route in the middle: loader)`,
    method: "GET",
    path: middlePage,
    status: 200,
    expect: /<h1>Item (<!-- -->)?42<\/h1>/,
  },
  {
    id: "data-item",
    title: (routes) => `GET ${middlePage(routes)}.data (its single fetch)`,
    method: "GET",
    path: (routes) => `${middlePage(routes)}.data`,
    status: 200,
    expect: /"id","42"/,
  },
  {
    id: "post-form",
    title: () => "POST /fixtures/action-ok (form action, document)",
    method: "POST",
    path: () => "/fixtures/action-ok",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "note=hello",
    status: 200,
    expect: /<p>Received: hello<\/p>/,
  },
  {
    id: "not-found",
    title: () => "GET /bench/no-such-page (404)",
    method: "GET",
    path: () => "/bench/no-such-page",
    status: 404,
    expect: /This page could not be found\./,
  },
];
