// The start form's device routes: paths that unmodified devices and portals POST to, each fixed to
// a layout and format (the decoder's --route). The defaults are listed; rows add or replace paths.
import { FORMAT_IDS, PRESETS } from "#codecs";
import { DEFAULT_ROUTES_TEXT, routeProblem, setForm, useStack, type RouteRow } from "./stackStore.ts";

const BODY_TEXT = { auto: "auto body", raw: "raw bytes", envelope: "portal JSON" } as const;
/** a batch layout's messages carry many readings: each is stored (and sent to the CSE) as its own record */
const BATCH_TEXT = { one: "one record", delta: "batch, delta", columns: "batch, columns" } as const;

export function RoutesField() {
  const routes = useStack((s) => s.form.routes);
  const update = (i: number, patch: Partial<RouteRow>) =>
    setForm({ routes: routes.map((r, j) => (j === i ? { ...r, ...patch } : r)) });
  return (
    <fieldset className="stack-field" data-testid="stack-routes">
      <legend>Device routes</legend>
      <small className="faint">Always: {DEFAULT_ROUTES_TEXT.join("; ")}. A row with the same path replaces it.</small>
      <datalist id="stack-route-layouts">
        {PRESETS.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </datalist>
      {routes.map((r, i) => {
        const problem = routeProblem(r, routes);
        return (
          <div key={i} className="stack-route" data-testid={`stack-route-${i}`}>
            <input
              className={`input mono stack-route-path${problem?.startsWith("path") ? " invalid" : ""}`}
              aria-label={`Route ${i + 1} path`}
              data-testid={`stack-route-path-${i}`}
              placeholder="/uplink (POST path)"
              value={r.path}
              onChange={(e) => update(i, { path: e.target.value.trim() })}
            />
            <input
              className={`input stack-route-layout${problem?.startsWith("layout") ? " invalid" : ""}`}
              aria-label={`Route ${i + 1} layout`}
              data-testid={`stack-route-layout-${i}`}
              list="stack-route-layouts"
              placeholder="layout id or name"
              value={r.layout}
              onChange={(e) => update(i, { layout: e.target.value })}
            />
            <select
              className="input"
              aria-label={`Route ${i + 1} format`}
              data-testid={`stack-route-format-${i}`}
              value={r.format}
              onChange={(e) => update(i, { format: e.target.value as RouteRow["format"] })}
            >
              {FORMAT_IDS.map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </select>
            <select
              className="input"
              aria-label={`Route ${i + 1} body`}
              title="auto: portal JSON when Content-Type is application/json, else the raw message"
              value={r.body}
              onChange={(e) => update(i, { body: e.target.value as RouteRow["body"] })}
            >
              {(["auto", "raw", "envelope"] as const).map((b) => (
                <option key={b} value={b}>
                  {BODY_TEXT[b]}
                </option>
              ))}
            </select>
            <select
              className="input"
              aria-label={`Route ${i + 1} readings`}
              data-testid={`stack-route-batch-${i}`}
              title="A layout with a batch sends many readings per message: each reading becomes its own record"
              value={r.batch ?? "one"}
              onChange={(e) => {
                const v = e.target.value as keyof typeof BATCH_TEXT;
                const { batch: _drop, ...rest } = r;
                setForm({
                  routes: routes.map((x, j) => (j === i ? (v === "one" ? rest : { ...rest, batch: v }) : x)),
                });
              }}
            >
              {(["one", "delta", "columns"] as const).map((b) => (
                <option key={b} value={b}>
                  {BATCH_TEXT[b]}
                </option>
              ))}
            </select>
            <button
              type="button"
              className="btn small ghost"
              aria-label={`Remove route ${i + 1}`}
              onClick={() => setForm({ routes: routes.filter((_, j) => j !== i) })}
            >
              ✕
            </button>
            {problem ? (
              <p className="stack-problem stack-route-problem" data-testid={`stack-route-problem-${i}`}>
                {problem}
              </p>
            ) : null}
          </div>
        );
      })}
      <button
        type="button"
        className="btn small stack-route-add"
        data-testid="stack-route-add"
        disabled={routes.length >= 32}
        onClick={() =>
          setForm({ routes: [...routes, { path: "", layout: "paper", format: "protobuf", body: "auto" }] })
        }
      >
        Add a route
      </button>
    </fieldset>
  );
}
