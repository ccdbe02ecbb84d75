/**
 * Remix's server adapter matches every request's path against the route tree twice (the path as
 * asked and, for a `.data` request, the page's path), and @remix-run/router's `matchRoutes`
 * flattens and ranks the whole tree and compiles a pattern per route it tries on each call: about a
 * tenth of the server's CPU on the submit path. A production server's route tree never changes and
 * a path always matches the same routes, so the answers for recently asked paths are kept here.
 *
 * Remix exposes no option for this; the adapter calls the router package's exported `matchRoutes`
 * through its module object, which `cacheRouteMatches` wraps (scripts/serve.ts, production only,
 * no file of the package is changed). Should a Remix version stop calling it that way, the cache is
 * merely never asked and everything matches as before.
 */
import { createRequire } from "node:module";

type MatchRoutes = (routes: unknown, location: unknown, basename?: string) => unknown[] | null;

interface RouterModule {
  matchRoutes: MatchRoutes;
}

/** Distinct paths kept per route tree: a few thousand items' paths, far less memory than the server already holds. */
const DEFAULT_PATHS = 4096;

/**
 * `matchRoutes` with the answers for the last `paths` string paths of each route tree kept (oldest dropped first).
 * Each caller gets its own copy of the match list, so none can change another's.
 */
export function memoizedMatchRoutes(match: MatchRoutes, paths = DEFAULT_PATHS): MatchRoutes {
  const byTree = new WeakMap<object, Map<string, unknown[] | null>>();
  return (routes, location, basename) => {
    if (typeof location !== "string" || typeof routes !== "object" || routes === null)
      return match(routes, location, basename);
    let cache = byTree.get(routes);
    if (!cache) byTree.set(routes, (cache = new Map()));
    const key = `${basename ?? "/"}\u0000${location}`;
    let found = cache.get(key);
    if (found === undefined) {
      found = match(routes, location, basename);
      if (cache.size >= paths) cache.delete(cache.keys().next().value as string);
      cache.set(key, found);
    }
    return found === null ? null : found.map(copyMatch);
  };
}

const copyMatch = (m: unknown) => {
  const match = m as { params?: object };
  return { ...match, params: { ...match.params } };
};

/** Wraps the router package's `matchRoutes` as the Remix server adapter loads it (once per process). */
export function cacheRouteMatches(): void {
  // The CommonJS copy is the one @remix-run/server-runtime requires; resolved from there, so it is that same copy.
  const fromServerRuntime = createRequire(createRequire(import.meta.url).resolve("@remix-run/server-runtime"));
  const router = fromServerRuntime("@remix-run/router") as RouterModule;
  if (typeof router.matchRoutes !== "function" || WRAPPED in router.matchRoutes) return;
  router.matchRoutes = Object.assign(memoizedMatchRoutes(router.matchRoutes), { [WRAPPED]: true });
}

const WRAPPED = Symbol("socrates.cached-route-matches");
