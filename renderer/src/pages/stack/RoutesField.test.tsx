// @vitest-environment happy-dom
// A device route can say its messages are batches (issue 27): the form keeps the form of the batch,
// which the host hands the decoder as `:batch=…`; "one record" takes it away again.
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { RoutesField } from "./RoutesField.tsx";
import { setForm, useStack } from "./stackStore.ts";

afterEach(() => {
  cleanup();
  setForm({ routes: [] });
});

describe("device routes in the start form", () => {
  it("set a route's messages to batches of readings, and back to one record", () => {
    render(<RoutesField />);
    fireEvent.click(screen.getByTestId("stack-route-add"));
    const select = screen.getByTestId("stack-route-batch-0") as HTMLSelectElement;
    expect(select.value).toBe("one");
    fireEvent.change(select, { target: { value: "delta" } });
    expect(useStack.getState().form.routes[0]).toMatchObject({ batch: "delta" });
    fireEvent.change(screen.getByTestId("stack-route-batch-0"), { target: { value: "one" } });
    expect(useStack.getState().form.routes[0]).not.toHaveProperty("batch");
  });
});
