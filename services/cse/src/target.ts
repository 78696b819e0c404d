// Which resource a request's path names: a resource of the tree, or a container's latest/oldest
// instance through its virtual child (la/latest, ol/oldest).
import { notFound } from "./errors.ts";
import { TY, type ResourceRow, type Store } from "./resourceTree.ts";

const VIRTUAL: Record<string, "la" | "ol"> = { la: "la", latest: "la", ol: "ol", oldest: "ol" };

export interface Target {
  row: ResourceRow;
  /** set when the path ended in la/ol: row is then the container */
  virtual?: "la" | "ol";
}

/** The target of `path` (structured, from the CSE base named `base`); 404 when there is none. */
export function resolveTarget(store: Store, base: string, path: string): Target {
  const segments = path.split("/");
  if (segments[0] !== base) throw notFound(`no resource at /${path} (the CSE base is /${base})`);
  const last = segments[segments.length - 1]!;
  const virtual = segments.length > 1 ? VIRTUAL[last] : undefined;
  if (virtual) {
    const parentPath = segments.slice(0, -1).join("/");
    const row = store.byPath(parentPath);
    if (!row) throw notFound(`no resource at /${parentPath}`);
    if (row.ty !== TY.CNT) throw notFound(`/${parentPath} is not a container, so it has no /${last}`);
    return { row, virtual };
  }
  const row = store.byPath(path);
  if (!row) throw notFound(`no resource at /${path}`);
  return { row };
}
