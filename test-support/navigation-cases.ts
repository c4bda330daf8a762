/**
 * The cases of app/routing/navigations.client.ts, on Remix 2's router
 * (test-support/framework-router-cases.ts); React Router 8 starts navigations
 * from its instrumentations instead, and the upgrade removes these.
 */
import { expect, it, vi } from "vitest";
import { onNavigations } from "../app/routing/navigations.client";
import type { CaseRoute, MountRouter } from "./framework-router-cases";

/** The router's calls of loaders and actions, and the listener's, in the order they happened. */
function recordedRouter(mount: MountRouter, release: Promise<void>) {
  const log: string[] = [];
  const load = (name: string) => async () => {
    log.push(`loader ${name}`);
    if (name === "slow") await release;
    return null;
  };
  const redirect = (entry: string, to: string) => () => {
    log.push(entry);
    return new Response(null, { status: 302, headers: { Location: to } });
  };
  const routes: CaseRoute[] = [
    {
      id: "root",
      path: "/",
      children: [
        { id: "list", path: "list", loader: load("list") },
        { id: "item", path: "list/:id", loader: load("item") },
        {
          id: "edit",
          path: "list/:id/edit",
          loader: load("edit"),
          action: redirect("action edit", "/list/7"),
        },
        { id: "old", path: "old", loader: redirect("loader old", "/list") },
        { id: "slow", path: "slow", loader: load("slow") },
        { id: "static", path: "static" },
      ],
    },
  ];
  // Hydrated, as the browser entry's is: the page's data came with the document.
  const router = mount(routes, { path: "/list", loaderData: { root: null, list: null } });
  const unsubscribe = onNavigations({
    started: (location) => log.push(`started ${location.pathname}`),
    landed: (location) => log.push(`landed ${location.pathname}`),
  });
  return { router, log, unsubscribe };
}

export function navigationCases(mount: MountRouter): void {
  it("starts each navigation before its loaders run, and lands where it ends", async () => {
    const { router, log } = recordedRouter(mount, Promise.resolve());
    await router.navigate("/list/7");
    expect(log).toEqual(["started /list/7", "loader item", "landed /list/7"]);
  });

  it("keeps a redirect in its navigation, which lands on the redirect's target", async () => {
    const { router, log } = recordedRouter(mount, Promise.resolve());
    await router.navigate("/old");
    expect(log).toEqual(["started /old", "loader old", "loader list", "landed /list"]);
  });

  it("keeps a form's action, its redirect and the reload in one navigation", async () => {
    const { router, log } = recordedRouter(mount, Promise.resolve());
    await router.navigate("/list/7/edit");
    log.length = 0;
    const formData = new FormData();
    formData.set("note", "hello");
    await router.navigate("/list/7/edit", { formMethod: "post", formData });
    expect(log).toEqual(["started /list/7/edit", "action edit", "loader item", "landed /list/7"]);
  });

  it("starts a new navigation when one replaces another in flight", async () => {
    let release = () => {};
    const { router, log } = recordedRouter(mount, new Promise<void>((resolve) => (release = resolve)));
    const slow = router.navigate("/slow");
    await vi.waitFor(() => expect(log).toContain("loader slow"));
    await router.navigate("/list/7");
    release();
    await slow;
    expect(log).toEqual(["started /slow", "loader slow", "started /list/7", "loader item", "landed /list/7"]);
  });

  it("starts back and forward navigations, and those with nothing to load", async () => {
    const { router, log } = recordedRouter(mount, Promise.resolve());
    await router.navigate("/static");
    await router.navigate("/list/7");
    log.length = 0;
    await router.navigate(-1);
    await vi.waitFor(() => expect(log).toEqual(["started /static", "landed /static"]));
    // A change of hash or of nothing is no navigation.
    await router.navigate("/static#part");
    expect(log).toEqual(["started /static", "landed /static"]);
  });

  it("stops when unsubscribed, and needs the framework's router", async () => {
    const { router, log, unsubscribe } = recordedRouter(mount, Promise.resolve());
    unsubscribe?.();
    await router.navigate("/list/7");
    expect(log).toEqual(["loader item"]);
    vi.stubGlobal("window", {});
    expect(onNavigations({ started: () => {}, landed: () => {} })).toBeUndefined();
  });
}
