// Routes in the URL: `?page=<page>&tab=<tab>` read and written from the page table's shapes, pure so it can be
// tested without a DOM. Parameters that are not ours (project, …) and the hash pass through untouched.

/** What the URL needs to know about one page of the table. */
export interface RouteShape {
  id: string;
  /** sub-tabs; the first is where the page opens */
  tabs?: readonly { id: string }[];
  /** older `?page=` values that still land here, each on one tab */
  aliases?: Readonly<Record<string, string>>;
  /** the page an empty or unknown URL shows */
  home?: boolean;
}

/** A route as the URL carries it; the page table narrows it to its own union. */
export interface UrlRoute {
  page: string;
  tab?: string;
}

export const PAGE_PARAM = "page";
export const TAB_PARAM = "tab";

function homeOf(shapes: readonly RouteShape[]): RouteShape {
  const home = shapes.find((s) => s.home) ?? shapes[0];
  if (!home) throw new Error("the page table is empty");
  return home;
}

/** The route of one page: its tab when that names one of its tabs, else its first tab. */
function routeTo(shape: RouteShape, tab: string | null | undefined): UrlRoute {
  if (!shape.tabs?.length) return { page: shape.id };
  return { page: shape.id, tab: shape.tabs.some((t) => t.id === tab) ? tab! : shape.tabs[0]!.id };
}

/** The route a query string names; an unknown page lands on the home page, an unknown tab on the page's first. */
export function parseRoute(shapes: readonly RouteShape[], search: string): UrlRoute {
  const params = new URLSearchParams(search);
  const page = params.get(PAGE_PARAM);
  const tab = params.get(TAB_PARAM);
  const shape = shapes.find((s) => s.id === page);
  if (shape) return routeTo(shape, tab);
  const aliased = shapes.find((s) => page !== null && s.aliases && Object.hasOwn(s.aliases, page));
  if (aliased && page !== null) return routeTo(aliased, aliased.aliases![page]);
  return routeTo(homeOf(shapes), null);
}

/** `search` with its page and tab set to `route` (the home page's first tab writes neither), the rest kept. */
export function routeSearch(shapes: readonly RouteShape[], route: UrlRoute, search: string): string {
  const params = new URLSearchParams(search);
  params.delete(PAGE_PARAM);
  params.delete(TAB_PARAM);
  const shape = shapes.find((s) => s.id === route.page);
  if (!shape) throw new Error(`no page "${route.page}" in the page table`);
  const first = shape.tabs?.[0]?.id;
  if (shape !== homeOf(shapes) || (route.tab !== undefined && route.tab !== first)) params.set(PAGE_PARAM, shape.id);
  if (route.tab !== undefined && route.tab !== first) params.set(TAB_PARAM, route.tab);
  const text = params.toString();
  return text ? `?${text}` : "";
}

export function sameRoute(a: UrlRoute, b: UrlRoute): boolean {
  return a.page === b.page && a.tab === b.tab;
}
