// A layout goes to the sizes workers as what changed since the last one posted: each top-level field the edit did not
// replace is named by its place in that last layout, so the worker keeps its own object for it (and every cache keyed
// on it) and nothing is written or parsed again; a replaced field goes as its JSON text. At 500 fields the whole
// layout was 1.5 ms of JSON.stringify on the page and as much JSON.parse in each worker, for every edit.
import type { Field, Layout } from "#codecs";

export interface PostedLayout {
  key: number;
  /** the key of the layout this one is written against: the last one posted (−1: none, every field is text) */
  base: number;
  /** the layout apart from its fields as JSON text; null: the same as the base's */
  env: string | null;
  /** per top-level field: its index in the base, or its JSON text */
  fields: (number | string)[];
}

const envOf = (l: Layout) => JSON.stringify({ ...l, fields: undefined });

/** The page's side: remembers the last layout posted to every worker and writes the next one against it. */
export class LayoutPoster {
  private last: { key: number; env: string; index: Map<Field, number> } | null = null;

  /** `key` names `layout`: a request for the layout posted last (a seed, the tab) names it by its key alone. */
  post(key: number, layout: Layout): PostedLayout {
    const base = this.last;
    if (base?.key === key) return { key, base: key, env: null, fields: [] };
    const env = envOf(layout);
    const fields = layout.fields.map((f) => base?.index.get(f) ?? JSON.stringify(f));
    this.last = { key, env, index: new Map(layout.fields.map((f, i) => [f, i])) };
    return { key, base: base ? base.key : -1, env: base && base.env === env ? null : env, fields };
  }
}

/** The worker's side: rebuilds each posted layout on the last one it read. Posts arrive in order, every one of them. */
export class LayoutReader {
  private last: { key: number; env: Omit<Layout, "fields">; layout: Layout } | null = null;

  read(p: PostedLayout): Layout {
    const base = this.last;
    if (base?.key === p.key) return base.layout;
    if (p.base !== -1 && base?.key !== p.base)
      throw new Error(
        `layout ${p.key} is written against layout ${p.base}, but this worker last read ${base?.key ?? "none"}`,
      );
    const env = p.env === null ? base!.env : (JSON.parse(p.env) as Omit<Layout, "fields">);
    const fields = p.fields.map((f) => (typeof f === "number" ? base!.layout.fields[f]! : (JSON.parse(f) as Field)));
    const layout = { ...env, fields } as Layout;
    this.last = { key: p.key, env, layout };
    return layout;
  }
}
