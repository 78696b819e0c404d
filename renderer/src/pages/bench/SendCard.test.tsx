// @vitest-environment happy-dom
// DevKit Send starts on the project's chosen format (issue #26, point 7), not on Protobuf: the format
// remembered for the project on another page, else the designer's byte-map format (JSON included: the
// verdict says at once that it does not fit).
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseLayout } from "#codecs";
import { SendCard } from "./SendCard.tsx";
import { projectFormat, rememberProjectFormat } from "../../session/projectDefaults.ts";
import { useDesigner } from "../../state/layoutStore.ts";
import { useSettings } from "../../state/settings.ts";

const LAYOUT = parseLayout({
  format: "satlayout",
  version: 1,
  name: "Buoy",
  fields: [{ id: "t", key: "t", name: "T", type: { kind: "int", bits: 16, signed: true } }],
});

const formatShown = () => (screen.getByTestId("send-format") as HTMLSelectElement).value;

beforeEach(() => {
  localStorage.clear();
  useDesigner.getState().load("p1", "Buoy", LAYOUT);
  useDesigner.getState().checkNow();
});
afterEach(cleanup);

describe("DevKit Send format", () => {
  it("starts on the designer's byte-map format when the project has no chosen one, JSON included", () => {
    useSettings.getState().set({ byteMapFormat: "json" });
    render(<SendCard />);
    expect(formatShown()).toBe("json");
  });

  it("starts on the format chosen for the project on another page, and remembers a change", () => {
    useSettings.getState().set({ byteMapFormat: "protobuf" });
    rememberProjectFormat("p1", "struct-zlib");
    render(<SendCard />);
    expect(formatShown()).toBe("struct-zlib");
    fireEvent.change(screen.getByTestId("send-format"), { target: { value: "cbor" } });
    expect(projectFormat("p1")).toBe("cbor");
    expect(projectFormat("p2")).toBe("protobuf");
  });

  it("starts on the newly opened project's format when another project opens under it", () => {
    useSettings.getState().set({ byteMapFormat: "protobuf" });
    rememberProjectFormat("p2", "sbe");
    render(<SendCard />);
    expect(formatShown()).toBe("protobuf");
    act(() => useDesigner.getState().load("p2", "Other", LAYOUT));
    expect(formatShown()).toBe("sbe");
  });
});
