// The page table: every page of the app, its tabs, its entries in the page bar and its URL. App shows the route's
// page from here and the page bar lists it from here; adding a page is adding one entry below.
// Pages other than the designer are loaded on first use (their code is not parsed at start-up; each is a chunk of
// its own in the build) and fetched while the app is idle, so the first visit does not wait for it either; App shows
// "Opening <page>…" meanwhile. The designer is in the first chunk: it is the page the app opens on, and its
// keystroke-to-paint path must never wait for a fetch. Tabs and badges load with the app (a badge shows live state
// on every screen from the start), so they live in modules of their own, apart from the page.
import { lazy, type ComponentType } from "react";
import { BenchBadge } from "../pages/bench/BenchBadge.tsx";
import { DECIDE_TABS } from "../pages/decide/tabs.ts";
import { DesignerPage } from "../pages/designer/DesignerPage.tsx";
import { EXPORT_TABS } from "../pages/export/tabs.ts";
import { LoadTestBadge } from "../pages/loadtest/LoadTestBadge.tsx";
import { StackBadge } from "../pages/stack/StackBadge.tsx";

export interface PageTab<T extends string> {
  id: T;
  label: string;
}

export interface PageEntry<Id extends string, T extends string = never> {
  id: Id;
  /** the page bar's label (pages with `tabsInBar` show their tabs' labels instead) */
  label: string;
  /** sub-tabs, the first is where the page opens; in the URL as `&tab=` */
  tabs?: readonly PageTab<T>[];
  /** one page-bar entry per tab rather than one for the page */
  tabsInBar?: boolean;
  /** older `?page=` values that still land on one of the tabs (bookmarks from before the tabs were one page) */
  aliases?: Readonly<Record<string, T>>;
  /** shown only with a project open; without one the start screen stands in and the bar hides the entry */
  needsProject?: boolean;
  /** the page an empty or unknown URL opens; always in the bar */
  home?: boolean;
  Component: ComponentType;
  /** loads a lazy page's code ahead of its first visit */
  preload?: () => Promise<unknown>;
  /** live state next to the bar entry (a connected DevKit, a running stack) */
  Badge?: ComponentType;
}

const page = <const Id extends string, const T extends string = never>(entry: PageEntry<Id, T>) => entry;

/** A page whose module is imported on first render (or preload), once. */
function lazyPage<M>(load: () => Promise<M>, pick: (m: M) => ComponentType) {
  let loading: Promise<M> | null = null;
  const preload = () => (loading ??= load());
  return { Component: lazy(() => preload().then((m) => ({ default: pick(m) }))), preload };
}

const decide = lazyPage(
  () => import("../pages/decide/DecidePage.tsx"),
  (m) => m.DecidePage,
);
const exportPage = lazyPage(
  () => import("../pages/export/ExportPage.tsx"),
  (m) => m.ExportPage,
);
const channel = lazyPage(
  () => import("../pages/channel/ChannelPage.tsx"),
  (m) => m.ChannelPage,
);
const bench = lazyPage(
  () => import("../pages/bench/BenchPage.tsx"),
  (m) => m.BenchPage,
);
const loadtest = lazyPage(
  () => import("../pages/loadtest/LoadTestPage.tsx"),
  (m) => m.LoadTestPage,
);
const stack = lazyPage(
  () => import("../pages/stack/StackPage.tsx"),
  (m) => m.StackPage,
);

export const PAGES = [
  page({ id: "designer", label: "Designer", home: true, needsProject: true, Component: DesignerPage }),
  page({
    id: "decide",
    label: "Decide",
    tabs: DECIDE_TABS,
    tabsInBar: true,
    aliases: { cost: "cost", advisor: "advisor", report: "report" },
    needsProject: true,
    ...decide,
  }),
  page({ id: "export", label: "Export code & schemas", tabs: EXPORT_TABS, needsProject: true, ...exportPage }),
  page({ id: "bench", label: "DevKit bench", ...bench, Badge: BenchBadge }),
  page({ id: "loadtest", label: "Load test", ...loadtest, Badge: LoadTestBadge }),
  page({ id: "stack", label: "Stack", ...stack, Badge: StackBadge }),
  page({ id: "channel", label: "Channel", ...channel }),
];

type RouteOf<E> =
  E extends PageEntry<infer Id, infer T> ? ([T] extends [never] ? { page: Id } : { page: Id; tab: T }) : never;

/** Every place the app can show: `{ page: "designer" } | { page: "decide"; tab: "cost" } | …` */
export type Route = RouteOf<(typeof PAGES)[number]>;
export type PageTable = readonly PageEntry<string, string>[];

/** Fetches every lazy page's code (called once the app is idle after start-up). */
export function preloadPages(): void {
  for (const p of PAGES as readonly PageEntry<string, string>[]) void p.preload?.();
}

/** The table's entry for a route's page. */
export function pageOf(route: Route): (typeof PAGES)[number] {
  const entry = PAGES.find((p) => p.id === route.page);
  if (!entry) throw new Error(`no page "${route.page}" in PAGES`);
  return entry;
}
