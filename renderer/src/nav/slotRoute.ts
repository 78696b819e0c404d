// The route a page shows: the one its slot in App gives it, which stays what it was while the page is taken down
// behind the next one (KeepUntilPainted), so the page being left does not empty itself first, nor draw itself again:
// the page reads its route from the slot alone (a subscription to the live route would redraw the page being left,
// a report of charts, in the very click that leaves it).
import { createContext, useContext } from "react";
import type { Route } from "./pages.tsx";
import { useRoute } from "./routeStore.ts";

export const SlotRoute = createContext<Route | null>(null);

/** The slot's route; outside App (a page rendered alone in a test) the live one as of this render. */
export function useSlotRoute(): Route {
  return useContext(SlotRoute) ?? useRoute.getState().route;
}
