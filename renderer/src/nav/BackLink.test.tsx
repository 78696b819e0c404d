// @vitest-environment happy-dom
// One way back, worded by one rule on every page (issue #26, point 7): it read "Projects", "Designer",
// "← Designer" or "SatPayload Studio" depending on the page.
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BackLink } from "./BackLink.tsx";
import { backTarget } from "./backRule.ts";
import { PAGES, type Route } from "./pages.tsx";
import { startRouting, useRoute } from "./routeStore.ts";
import { useSession } from "../session/sessionStore.ts";

/** every page's header source, by file: the pages whose top bar shows a way back */
const HEADERS = import.meta.glob(["../pages/*/*Page.tsx", "../pages/designer/TopBar.tsx"], {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

beforeEach(() => {
  history.replaceState(null, "", "/?project=p1");
  useSession.setState({ screen: "designer" });
  startRouting(PAGES);
});
afterEach(cleanup);

describe("the way back", () => {
  it("says ← Projects on the designer and without a project, ← Designer elsewhere", () => {
    expect(backTarget("designer", true)).toMatchObject({ to: "projects", label: "← Projects" });
    for (const p of ["decide", "export", "bench", "loadtest", "stack", "channel"]) {
      expect(backTarget(p, true)).toMatchObject({ to: "designer", label: "← Designer" });
      expect(backTarget(p, false)).toMatchObject({ to: "designer", label: "← Projects" });
    }
  });

  it("shows the rule's words and goes to the designer from another page", () => {
    act(() => useRoute.setState({ route: { page: "stack" } as Route }));
    render(<BackLink testId="back" />);
    expect(screen.getByTestId("back").textContent).toBe("SatPayload Studio: ← Designer");
    expect(screen.getByTestId("back").getAttribute("title")).toBe("Back to the designer");
    fireEvent.click(screen.getByTestId("back"));
    expect(useRoute.getState().route.page).toBe("designer");
  });

  it("is the one component on every page with a top bar (no page words its own)", () => {
    const withHeader = Object.entries(HEADERS).filter(([, src]) => src.includes('className="topbar'));
    expect(withHeader.length).toBeGreaterThanOrEqual(7);
    for (const [file, src] of withHeader) {
      expect(src, file).toContain("<BackLink ");
      expect(src, file).not.toMatch(/brand-mark/);
    }
  });
});
