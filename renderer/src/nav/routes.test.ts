// @vitest-environment happy-dom
import { describe, expect, expectTypeOf, it } from "vitest";
import { PAGES, type Route } from "./pages.tsx";
import { parseRoute, routeSearch } from "./routes.ts";

/** every route the page table allows, built from the table rather than listed here */
const ALL: Route[] = PAGES.flatMap((p) =>
  p.tabs ? p.tabs.map((t) => ({ page: p.id, tab: t.id }) as Route) : [{ page: p.id } as Route],
);

describe("routes in the URL", () => {
  it("names every page and tab of today's app in the Route union", () => {
    expectTypeOf<Route>().toEqualTypeOf<
      | { page: "designer" }
      | { page: "decide"; tab: "cost" | "budget" | "advisor" | "report" }
      | { page: "export"; tab: "files" | "evolution" }
      | { page: "bench" }
      | { page: "loadtest" }
      | { page: "stack" }
      | { page: "channel" }
    >();
    expect(ALL).toHaveLength(11);
  });

  it("reads back every route it writes, keeping the project and other parameters", () => {
    for (const route of ALL) {
      const search = routeSearch(PAGES, route, "?project=p1&x=y");
      expect(parseRoute(PAGES, search), search).toEqual(route);
      const params = new URLSearchParams(search);
      expect(params.get("project")).toBe("p1");
      expect(params.get("x")).toBe("y");
    }
  });

  it("gives every route its own URL", () => {
    expect(new Set(ALL.map((r) => routeSearch(PAGES, r, ""))).size).toBe(ALL.length);
  });

  it("writes the designer as no page at all, and a page's first tab without a tab", () => {
    expect(routeSearch(PAGES, { page: "designer" }, "?project=p1&page=bench")).toBe("?project=p1");
    expect(routeSearch(PAGES, { page: "decide", tab: "cost" }, "")).toBe("?page=decide");
    expect(routeSearch(PAGES, { page: "decide", tab: "report" }, "?tab=files")).toBe("?page=decide&tab=report");
    expect(routeSearch(PAGES, { page: "bench" }, "?tab=cost")).toBe("?page=bench");
  });

  it("still lands the URLs of before the route model (bookmarks, e2e)", () => {
    expect(parseRoute(PAGES, "?project=p1&page=cost")).toEqual({ page: "decide", tab: "cost" });
    expect(parseRoute(PAGES, "?page=advisor")).toEqual({ page: "decide", tab: "advisor" });
    expect(parseRoute(PAGES, "?page=report")).toEqual({ page: "decide", tab: "report" });
    expect(parseRoute(PAGES, "?page=export")).toEqual({ page: "export", tab: "files" });
    expect(parseRoute(PAGES, "?page=bench")).toEqual({ page: "bench" });
    expect(parseRoute(PAGES, "?page=loadtest")).toEqual({ page: "loadtest" });
    expect(parseRoute(PAGES, "?page=stack")).toEqual({ page: "stack" });
    expect(parseRoute(PAGES, "?project=p1")).toEqual({ page: "designer" });
    expect(parseRoute(PAGES, "")).toEqual({ page: "designer" });
  });

  it("lands an unknown page on the designer and an unknown tab on the page's first", () => {
    expect(parseRoute(PAGES, "?page=nowhere")).toEqual({ page: "designer" });
    expect(parseRoute(PAGES, "?page=constructor")).toEqual({ page: "designer" });
    expect(parseRoute(PAGES, "?page=decide&tab=nowhere")).toEqual({ page: "decide", tab: "cost" });
    expect(parseRoute(PAGES, "?page=bench&tab=cost")).toEqual({ page: "bench" });
  });

  it("refuses to write a page the table does not have", () => {
    expect(() => routeSearch(PAGES, { page: "nowhere" }, "")).toThrow(/no page "nowhere"/);
  });
});
