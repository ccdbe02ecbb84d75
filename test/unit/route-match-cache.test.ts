/**
 * The route-match cache (app/server/http/route-match-cache.server.ts): it answers exactly as
 * @remix-run/router's own matchRoutes on a route tree shaped like the app's, every caller gets its
 * own copy, and the copy the Remix server adapter calls is the one that gets wrapped.
 */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { cacheRouteMatches, memoizedMatchRoutes } from "../../app/server/http/route-match-cache.server.ts";

type MatchRoutes = Parameters<typeof memoizedMatchRoutes>[0];
const fromServerRuntime = createRequire(createRequire(import.meta.url).resolve("@remix-run/server-runtime"));
const router = fromServerRuntime("@remix-run/router") as { matchRoutes: MatchRoutes };
const routeMatching = fromServerRuntime("@remix-run/server-runtime/dist/routeMatching.js") as {
  matchServerRoutes: (routes: unknown, pathname: string) => { route: { id: string }; params: object }[] | null;
};

// The app's shape: a root layout, an index, static and dynamic paths, a dotted file route and the catch-all.
const tree = () => [
  {
    id: "root",
    path: "",
    children: [
      { id: "index", index: true },
      { id: "login", path: "login" },
      { id: "annotate-index", path: "annotate", index: true },
      { id: "item", path: "annotate/:studyId/items/:itemId" },
      { id: "next", path: "annotate/:studyId/next" },
      { id: "labels-csv", path: "admin/studies/:studyId/labels.csv" },
      { id: "study", path: "admin/studies/:studyId" },
      { id: "catch-all", path: "*" },
    ],
  },
];

const PATHS = [
  "/",
  "/login",
  "/annotate",
  "/annotate/3/items/17",
  "/annotate/3/items/17.data",
  "/annotate/3/next",
  "/admin/studies/2/labels.csv",
  "/admin/studies/2",
  "/no/such/page",
  "/annotate/3/items/%31%37",
];

describe("memoizedMatchRoutes", () => {
  it("answers as matchRoutes does, for the first call of a path and for repeated ones", () => {
    const routes = tree();
    const cached = memoizedMatchRoutes(router.matchRoutes);
    for (let round = 0; round < 3; round++)
      for (const path of PATHS) expect(cached(routes, path), path).toEqual(router.matchRoutes(routes, path));
    expect((cached(routes, "/annotate/3/items/17") as { route: { id: string } }[]).map((m) => m.route.id)).toEqual([
      "root",
      "item",
    ]);
  });

  it("gives every caller its own copy: changing one answer's params changes no later answer", () => {
    const routes = tree();
    const cached = memoizedMatchRoutes(router.matchRoutes);
    const first = cached(routes, "/annotate/3/items/17") as { params: Record<string, string> }[];
    first[1].params.itemId = "changed";
    const again = cached(routes, "/annotate/3/items/17") as { params: Record<string, string> }[];
    expect(again[1].params).toEqual({ studyId: "3", itemId: "17" });
    expect(again).not.toBe(first);
  });

  it("keeps at most the given number of paths, dropping the oldest; computes a dropped path again", () => {
    const routes = tree();
    const asked: string[] = [];
    const counting: MatchRoutes = (r, location, basename) => {
      asked.push(String(location));
      return router.matchRoutes(r, location, basename);
    };
    const cached = memoizedMatchRoutes(counting, 2);
    cached(routes, "/login");
    cached(routes, "/annotate");
    cached(routes, "/login");
    expect(asked).toEqual(["/login", "/annotate"]);
    cached(routes, "/annotate/3/next"); // drops "/login", the oldest entry
    cached(routes, "/annotate");
    cached(routes, "/login");
    expect(asked).toEqual(["/login", "/annotate", "/annotate/3/next", "/login"]);
  });

  it("keeps route trees apart and passes a location object straight through", () => {
    const cached = memoizedMatchRoutes(router.matchRoutes);
    const other = [{ id: "only", path: "login" }];
    expect(cached(tree(), "/login")).toEqual(router.matchRoutes(tree(), "/login"));
    expect(cached(other, "/login")).toEqual(router.matchRoutes(other, "/login"));
    expect(cached(other, "/annotate")).toBeNull();
    const location = { pathname: "/annotate/3/next" };
    expect(cached(tree(), location)).toEqual(router.matchRoutes(tree(), location));
  });
});

describe("cacheRouteMatches", () => {
  it("wraps the matchRoutes the Remix server adapter calls, once, with the same answers", () => {
    const original = router.matchRoutes;
    const before = PATHS.map((p) => routeMatching.matchServerRoutes(tree(), p));
    cacheRouteMatches();
    const wrapped = router.matchRoutes;
    expect(wrapped).not.toBe(original);
    cacheRouteMatches();
    expect(router.matchRoutes).toBe(wrapped);
    const routes = tree();
    for (let round = 0; round < 2; round++)
      expect(PATHS.map((p) => routeMatching.matchServerRoutes(routes, p))).toEqual(before);
    // The adapter looks the function up on the module at each call, which is what lets the wrapper take effect.
    const asked: unknown[] = [];
    router.matchRoutes = (r, location, basename) => (asked.push(location), wrapped(r, location, basename));
    try {
      routeMatching.matchServerRoutes(routes, "/login");
    } finally {
      router.matchRoutes = wrapped;
    }
    expect(asked).toEqual(["/login"]);
  });
});
