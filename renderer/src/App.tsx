// Top level: the theme, the route's page from the page table (behind the start screen while a page needs a
// project and none is open), and the page bar.
import { Suspense, useEffect, useRef } from "react";
import { KeepUntilPainted } from "./nav/KeepUntilPainted.tsx";
import { PageBar } from "./nav/PageBar.tsx";
import { PAGES, pageOf, type Route } from "./nav/pages.tsx";
import { go, useRoute } from "./nav/routeStore.ts";
import { SlotRoute } from "./nav/slotRoute.ts";
import { useSession } from "./session/sessionStore.ts";
import { StartScreen } from "./start/StartScreen.tsx";
import { useSettings } from "./state/settings.ts";

export function App() {
  const screen = useSession((s) => s.screen);
  const theme = useSettings((s) => s.theme);
  const route = useRoute((s) => s.route);
  const entry = pageOf(route);
  // each page's last route: a page being left keeps showing what it showed
  const routes = useRef(new Map<string, Route>());
  routes.current.set(route.page, route);
  const gated = !!entry.needsProject && screen !== "designer";
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  useEffect(() => {
    // no project (closed, or it failed to open): a page that needs one is not there to come back to
    if (screen === "start" && entry.needsProject && !entry.home) go({ page: "designer" }, { replace: true });
  }, [screen, entry]);
  return (
    <div className="app" data-testid="app" data-screen={screen} data-page={route.page}>
      {!gated ? (
        <KeepUntilPainted current={entry.id}>
          {(id) => {
            const shown = routes.current.get(id)!;
            const page = pageOf(shown);
            return (
              <SlotRoute.Provider value={shown}>
                <Suspense
                  fallback={
                    <div className="loading" data-testid="page-loading">
                      Opening {page.label}…
                    </div>
                  }
                >
                  <page.Component />
                </Suspense>
              </SlotRoute.Provider>
            );
          }}
        </KeepUntilPainted>
      ) : screen === "loading" ? (
        <div className="loading" data-testid="loading">
          Opening…
        </div>
      ) : (
        <StartScreen />
      )}
      <PageBar pages={PAGES} />
    </div>
  );
}
