// @vitest-environment happy-dom
// The options form draws whatever fields the host sends (one of each kind here, shaped as exports.list
// answers): the widget per kind, defaults shown but not sent, a list's order kept, a refusal under its field.
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ExportOptionsForm } from "./ExportOptionsForm.tsx";
import { type ExportInfo, useExport } from "./exportStore.ts";

const EXPORTERS: ExportInfo[] = [
  { id: "plain", label: "Plain", description: "no options", options: [] },
  {
    id: "decoders",
    label: "Decoders",
    description: "d",
    options: [
      {
        key: "servers",
        flag: "network-servers",
        label: "Network servers",
        description: "which servers",
        kind: "choices",
        choices: [
          { value: "ttn", label: "TTN v3" },
          { value: "chirpstack", label: "ChirpStack v4" },
        ],
        default: ["ttn", "chirpstack"],
        minItems: 1,
      },
      {
        key: "decoderFormats",
        flag: "network-formats",
        label: "Formats",
        description: "which formats",
        kind: "choices",
        choices: [
          { value: "struct", label: "Struct" },
          { value: "sbe", label: "SBE" },
        ],
        unset: "every one the layout can be written in",
      },
    ],
  },
  {
    id: "fw",
    label: "Firmware",
    description: "f",
    options: [
      {
        key: "format",
        flag: "firmware-format",
        label: "Firmware encodes",
        description: "format",
        kind: "choice",
        choices: [
          { value: "protobuf", label: "Protocol Buffers" },
          { value: "struct", label: "Struct" },
        ],
        default: "protobuf",
      },
      {
        key: "intervalSeconds",
        flag: "firmware-interval-seconds",
        label: "Seconds between readings",
        description: "interval",
        kind: "integer",
        default: 600,
        min: 1,
        max: 604800,
      },
      { key: "board", flag: "firmware-board", label: "Board", description: "board", kind: "text", default: "esp32dev" },
    ],
  },
];

const tid = (id: string) => screen.getByTestId(id);

describe("ExportOptionsForm", () => {
  beforeEach(() => useExport.setState({ exporters: EXPORTERS, selected: [], options: {}, optionErrors: {} }));
  afterEach(cleanup);

  it("shows nothing while no chosen export has options, then one group per chosen export that has", () => {
    useExport.setState({ selected: ["plain"] });
    const { container } = render(<ExportOptionsForm />);
    expect(container.textContent).toBe("");
    act(() => useExport.setState({ selected: ["plain", "decoders", "fw"] }));
    expect(screen.getAllByRole("group").map((g) => g.getAttribute("data-testid") ?? g.tagName)).toContain(
      "opts-decoders",
    );
    expect(screen.queryByTestId("opts-plain")).toBeNull();
    expect((tid("opt-firmware-format") as HTMLSelectElement).value).toBe("protobuf");
    expect(screen.getByRole("option", { name: "Protocol Buffers" })).toBeTruthy();
    expect((tid("opt-firmware-interval-seconds") as HTMLInputElement).type).toBe("number");
    expect((tid("opt-firmware-interval-seconds") as HTMLInputElement).value).toBe("600");
    expect((tid("opt-firmware-board") as HTMLInputElement).value).toBe("esp32dev");
    // defaults are shown, not sent: the host fills them in
    expect(useExport.getState().options).toEqual({});
    // a list without a default shows every choice checked
    expect((tid("opt-network-formats-sbe") as HTMLInputElement).checked).toBe(true);
  });

  it("sends what the user sets: a list in the choices' order, a number as a number, empty back to the default", () => {
    useExport.setState({ selected: ["decoders", "fw"] });
    render(<ExportOptionsForm />);
    fireEvent.click(tid("opt-network-servers-ttn"));
    expect(useExport.getState().options.servers).toEqual(["chirpstack"]);
    fireEvent.click(tid("opt-network-servers-ttn"));
    expect(useExport.getState().options.servers).toEqual(["ttn", "chirpstack"]);
    fireEvent.change(tid("opt-firmware-format"), { target: { value: "struct" } });
    fireEvent.change(tid("opt-firmware-interval-seconds"), { target: { value: "60" } });
    expect(useExport.getState().options).toMatchObject({ format: "struct", intervalSeconds: 60 });
    fireEvent.change(tid("opt-firmware-interval-seconds"), { target: { value: "" } });
    expect(useExport.getState().options).not.toHaveProperty("intervalSeconds");
  });

  it("shows the host's refusal under the option it names", () => {
    useExport.setState({ selected: ["fw"], options: { board: "a b" }, optionErrors: { board: "must be a board id" } });
    render(<ExportOptionsForm />);
    expect(tid("opt-firmware-board-problem").textContent).toBe("must be a board id");
    expect(screen.queryByTestId("opt-firmware-format-problem")).toBeNull();
  });
});
