// The one route store: the page (and tab) on screen, `go` to change it, and the browser's history kept in step —
// each `go` is a history entry, so reload lands on the same page and the back button returns.
import { create } from "zustand";
import type { PageTable, Route } from "./pages.tsx";
import { parseRoute, routeSearch, sameRoute } from "./routes.ts";

interface RouteState {
  route: Route;
}

let table: PageTable | null = null;

function tableOrThrow(): PageTable {
  if (!table) throw new Error("routing has not started: call startRouting(PAGES) first");
  return table;
}

// parseRoute only returns routes built from the table's own shapes, which are exactly the Route union
const fromUrl = (t: PageTable, search: string): Route => parseRoute(t, search) as Route;

export const useRoute = create<RouteState>()(() => ({ route: { page: "designer" } }));

function onPopState(): void {
  useRoute.setState({ route: fromUrl(tableOrThrow(), location.search) });
}

/** Reads the route from the URL and follows the back and forward buttons from now on. */
export function startRouting(pages: PageTable): void {
  table = pages;
  useRoute.setState({ route: fromUrl(pages, location.search) });
  window.removeEventListener("popstate", onPopState);
  window.addEventListener("popstate", onPopState);
}

/**
 * Shows `route`: a new history entry, or with `replace` the current one rewritten (a route the page cannot show
 * any more, which the back button should not return to).
 */
export function go(route: Route, opts: { replace?: boolean } = {}): void {
  const t = tableOrThrow();
  if (sameRoute(route, useRoute.getState().route)) return;
  const url = `${location.pathname}${routeSearch(t, route, location.search)}${location.hash}`;
  if (opts.replace) history.replaceState(history.state, "", url);
  else history.pushState(null, "", url);
  useRoute.setState({ route });
}
