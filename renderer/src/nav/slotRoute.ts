// The route a page shows: the one its slot in App gives it, which stays what it was while the page is taken down
// behind the next one (KeepUntilPainted), so the page being left does not empty itself first.
import { createContext, useContext } from "react";
import type { Route } from "./pages.tsx";
import { useRoute } from "./store.ts";

export const SlotRoute = createContext<Route | null>(null);

/** The slot's route; outside App (a page rendered alone in a test) the live one. */
export function useSlotRoute(): Route {
  const slot = useContext(SlotRoute);
  const live = useRoute((s) => s.route);
  return slot ?? live;
}
