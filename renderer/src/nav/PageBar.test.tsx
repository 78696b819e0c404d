// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PageBar } from "./PageBar.tsx";
import { PAGES } from "./pages.tsx";
import { startRouting, useRoute } from "./routeStore.ts";
import { useSession } from "../session/sessionStore.ts";

// the real table without the badges: those show live host state (a DevKit, a stack), which the e2e tests drive
const TABLE = PAGES.map((p) => ({ ...p, Badge: undefined }));

const entry = (name: string) => screen.getByRole("button", { name });
const current = () =>
  screen
    .getAllByRole("button")
    .filter((b) => b.getAttribute("aria-current") === "page")
    .map((b) => b.textContent);

/** the popstate of a history step arrives after it, as in a browser */
async function back(): Promise<void> {
  const popped = new Promise((resolve) => window.addEventListener("popstate", resolve, { once: true }));
  history.back();
  await act(async () => {
    await popped;
  });
}

describe("PageBar", () => {
  beforeEach(() => {
    history.replaceState(null, "", "/?project=p1");
    useSession.setState({ screen: "designer" });
    startRouting(TABLE);
  });
  afterEach(() => cleanup());

  it("lists every page of the table, decide's tabs as entries of their own, and marks the designer", () => {
    render(<PageBar pages={TABLE} />);
    expect(screen.getAllByRole("button").map((b) => b.textContent)).toEqual([
      "Designer",
      "Fleet cost",
      "Budget",
      "Fit advisor",
      "Report",
      "Export code & schemas",
      "DevKit bench",
      "Load test",
      "Stack",
      "Channel",
    ]);
    expect(current()).toEqual(["Designer"]);
  });

  it("hides the pages that need a project while none is open", () => {
    useSession.setState({ screen: "start" });
    render(<PageBar pages={TABLE} />);
    expect(screen.getAllByRole("button").map((b) => b.textContent)).toEqual([
      "Designer",
      "DevKit bench",
      "Load test",
      "Stack",
      "Channel",
    ]);
  });

  it("goes where an entry leads, writes it to the URL, and the back button returns", async () => {
    render(<PageBar pages={TABLE} />);
    fireEvent.click(entry("Fit advisor"));
    expect(useRoute.getState().route).toEqual({ page: "decide", tab: "advisor" });
    expect(location.search).toBe("?project=p1&page=decide&tab=advisor");
    expect(current()).toEqual(["Fit advisor"]);

    fireEvent.click(entry("Stack"));
    expect(location.search).toBe("?project=p1&page=stack");
    expect(current()).toEqual(["Stack"]);

    await back();
    expect(useRoute.getState().route).toEqual({ page: "decide", tab: "advisor" });
    expect(current()).toEqual(["Fit advisor"]);
    await back();
    expect(useRoute.getState().route).toEqual({ page: "designer" });
    expect(current()).toEqual(["Designer"]);
  });

  it("adds no history entry for the page already shown", () => {
    render(<PageBar pages={TABLE} />);
    const before = history.length;
    fireEvent.click(entry("Channel"));
    fireEvent.click(entry("Channel"));
    expect(history.length).toBe(before + 1);
  });

  it("opens a page with tabs on its first tab", () => {
    history.replaceState(null, "", "/?project=p1&page=export&tab=evolution");
    startRouting(TABLE);
    render(<PageBar pages={TABLE} />);
    expect(current()).toEqual(["Export code & schemas"]);
    fireEvent.click(entry("Designer"));
    fireEvent.click(entry("Export code & schemas"));
    expect(useRoute.getState().route).toEqual({ page: "export", tab: "files" });
  });
});
