// @vitest-environment happy-dom
// The Load test form per project (issue #26, point 7): it opens on the project's own layout and chosen
// format, remembers the user's last inputs per project across visits and reloads (localStorage), and
// takes a format chosen on another page since.
import { beforeEach, describe, expect, it } from "vitest";
import { enterProject, setForm, useLoadTest } from "./loadTestStore.ts";
import { rememberProjectFormat } from "../../session/projectDefaults.ts";
import { useSettings } from "../../state/settings.ts";

/** A visit to the page with `projectId` open, as startLoadTest begins it. */
const visit = (projectId: string | null) => {
  enterProject(projectId);
  return useLoadTest.getState().form;
};

beforeEach(() => {
  localStorage.clear();
  useSettings.getState().set({ byteMapFormat: "struct-zlib" });
  useLoadTest.setState({ form: visit(null), targetChosen: false });
});

describe("load test form per project", () => {
  it("opens on the project's own layout and the format chosen in the designer, not the paper preset and Protobuf", () => {
    const f = visit("p1");
    expect(f.layout).toBe("project:p1");
    expect(f.format).toBe("struct-zlib");
    expect(f.duration).toBe("30");
  });

  it("remembers the last inputs per project across visits; another project keeps its own", () => {
    visit("p1");
    setForm({ layout: "preset:paper", duration: "120", devices: "500", mode: "open", rate: "40", format: "cbor" });
    const other = visit("p2");
    expect(other).toMatchObject({ layout: "project:p2", duration: "30", devices: "100", mode: "closed" });
    expect(other.format).toBe("struct-zlib");
    const back = visit("p1");
    expect(back).toMatchObject({ layout: "preset:paper", duration: "120", devices: "500", mode: "open", rate: "40" });
    expect(back.format).toBe("cbor");
  });

  it("takes the project's format chosen on another page since the last visit", () => {
    visit("p1");
    setForm({ format: "cbor", duration: "90" });
    rememberProjectFormat("p1", "sbe");
    expect(visit("p1")).toMatchObject({ format: "sbe", duration: "90" });
  });

  it("drops an unreadable remembered input and keeps the others", () => {
    localStorage.setItem(
      "satpayload.loadtest.forms",
      JSON.stringify({ p1: { duration: "45", devices: 7, mode: "sideways", layout: "../etc" } }),
    );
    expect(visit("p1")).toMatchObject({ duration: "45", devices: "100", mode: "closed", layout: "project:p1" });
    localStorage.setItem("satpayload.loadtest.forms", "{not json");
    expect(visit("p1")).toMatchObject({ duration: "30", layout: "project:p1" });
  });

  it("keeps the target as it stands: it follows the running stack, not the memory", () => {
    visit("p1");
    setForm({ target: "url", url: "http://127.0.0.1:9/ingest" });
    useLoadTest.setState((s) => ({ form: { ...s.form, target: "stack" } }));
    const f = visit("p1");
    expect(f.target).toBe("stack");
    expect(f.url).toBe("http://127.0.0.1:9/ingest");
  });
});
