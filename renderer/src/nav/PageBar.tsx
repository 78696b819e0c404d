// The page bar at the foot of every screen: one entry per page of the table (or per tab, for pages that put
// their tabs there), the current one marked, pages that need a project hidden until one is open.
import type { PageTable, Route } from "./pages.tsx";
import { go, useRoute } from "./routeStore.ts";
import { useSession } from "../session/sessionStore.ts";
import "./pageBar.css";

interface BarEntry {
  key: string;
  label: string;
  route: Route;
  current: boolean;
  Badge?: PageTable[number]["Badge"];
}

function entries(pages: PageTable, route: Route, projectOpen: boolean): BarEntry[] {
  return pages
    .filter((p) => p.home || !p.needsProject || projectOpen)
    .flatMap((p): BarEntry[] => {
      // each entry's route is built from the table's own ids, which make up the Route union
      const to = (tab?: string) => (tab === undefined ? { page: p.id } : { page: p.id, tab }) as Route;
      if (p.tabsInBar && p.tabs?.length)
        return p.tabs.map((t) => ({
          key: t.id,
          label: t.label,
          route: to(t.id),
          current: route.page === p.id && "tab" in route && route.tab === t.id,
        }));
      return [{ key: p.id, label: p.label, route: to(p.tabs?.[0]?.id), current: route.page === p.id, Badge: p.Badge }];
    });
}

export function PageBar({ pages }: { pages: PageTable }) {
  const route = useRoute((s) => s.route);
  const projectOpen = useSession((s) => s.screen === "designer");
  return (
    <nav className="app-nav" aria-label="Pages">
      {entries(pages, route, projectOpen).map((e) => (
        <button
          key={e.key}
          type="button"
          className="app-nav-item"
          aria-current={e.current ? "page" : undefined}
          data-testid={`nav-${e.key}`}
          onClick={() => go(e.route)}
        >
          {e.label}
          {e.Badge ? <e.Badge /> : null}
        </button>
      ))}
    </nav>
  );
}
