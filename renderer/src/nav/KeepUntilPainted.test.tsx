// @vitest-environment happy-dom
// A page switch mounts the new page first and unmounts the one left only after the new one's frame.
import { act, cleanup, render } from "@testing-library/react";
import { useEffect } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { KeepUntilPainted } from "./KeepUntilPainted.tsx";

const log: string[] = [];

function Page({ name }: { name: string }) {
  useEffect(() => {
    log.push(`mount ${name}`);
    return () => {
      log.push(`unmount ${name}`);
    };
  }, [name]);
  return <p data-testid={`page-${name}`}>{name}</p>;
}

const pages = (current: string) => <KeepUntilPainted current={current}>{(k) => <Page name={k} />}</KeepUntilPainted>;

describe("KeepUntilPainted", () => {
  afterEach(cleanup);

  it("keeps the page left mounted and hidden until the next frame, then takes it down", async () => {
    log.length = 0;
    const view = render(pages("a"));
    view.rerender(pages("b"));
    // b is there and shown; a is still mounted, hidden, never re-mounted
    expect(log).toEqual(["mount a", "mount b"]);
    expect(view.getByTestId("page-a").closest("[hidden]")).not.toBeNull();
    expect(view.getByTestId("page-b").closest("[hidden]")).toBeNull();
    await act(async () => {
      await new Promise((r) => setTimeout(r, 150));
    });
    expect(log).toEqual(["mount a", "mount b", "unmount a"]);
    expect(view.queryByTestId("page-a")).toBeNull();
  });

  it("coming back before the old page went keeps it, mounted once", async () => {
    log.length = 0;
    const view = render(pages("a"));
    view.rerender(pages("b"));
    view.rerender(pages("a"));
    expect(view.getByTestId("page-a").closest("[hidden]")).toBeNull();
    await act(async () => {
      await new Promise((r) => setTimeout(r, 150));
    });
    expect(log.filter((l) => l === "mount a")).toHaveLength(1);
    expect(view.queryByTestId("page-b")).toBeNull();
  });
});
