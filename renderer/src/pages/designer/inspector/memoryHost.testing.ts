// For the inspector's tests: a host that keeps one project in memory and validates every save with
// parseLayout, as the real host does, so a value the layout refuses is never "saved". Test code only.
import { parseLayout, type Layout } from "#codecs";
import type { HostApi, Project } from "#host/api/contract.ts";

export function memoryProjectHost(stored: unknown, name: string): { api: HostApi; saves: Layout[] } {
  let project: Project = {
    id: "p1",
    name,
    updatedAt: "2026-01-01T00:00:00.000Z",
    version: 1,
    filePath: null,
    layout: stored,
  };
  const saves: Layout[] = [];
  const api: HostApi = {
    call: (async (method: string, req: { layout?: unknown }) => {
      if (method === "projects.open") return structuredClone(project);
      if (method === "projects.save") {
        const layout = parseLayout(req.layout);
        saves.push(layout);
        project = { ...project, layout, version: project.version + 1, updatedAt: new Date().toISOString() };
        return { version: project.version, updatedAt: project.updatedAt };
      }
      throw new Error(`${method} is not part of this test`);
    }) as HostApi["call"],
    on: () => () => {},
  };
  return { api, saves };
}
