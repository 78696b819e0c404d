// Start screen: presets to begin from, recent projects, a blank layout, or a layout file.
import { useRef } from "react";
import type { ProjectSummary, Res } from "#host/api/contract.ts";
import { RecentlyDeleted, UndoToast } from "./RecentlyDeleted.tsx";
import { useHostList } from "./useHostList.ts";
import { deleteProject, useDeletion } from "../session/deletion.ts";
import { importFile, openFileDialog } from "../session/layoutFile.ts";
import { createEmpty, createProject, openProject } from "../session/projects.ts";
import { useSession } from "../session/sessionStore.ts";
import { Icon } from "../ui/Icon.tsx";
import { ThemeToggle } from "../ui/ThemeToggle.tsx";

type Presets = Res<"presets.list">;

function fieldCount(layout: unknown): number | null {
  const f = (layout as { fields?: unknown })?.fields;
  return Array.isArray(f) ? f.length : null;
}

function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

export function StartScreen() {
  const api = useSession((s) => s.api)!;
  const shell = useSession((s) => s.shell);
  const error = useSession((s) => s.startError);
  const revision = useDeletion((s) => s.revision);
  const deletionError = useDeletion((s) => s.error);
  const presets = useHostList<Presets>(() => api.call("presets.list", {}));
  const recent = useHostList<ProjectSummary[]>(() => api.call("projects.list", { limit: 20 }), revision);
  const fileInput = useRef<HTMLInputElement>(null);

  const openFile = () => {
    if (shell === "electron") void openFileDialog();
    else fileInput.current?.click();
  };

  return (
    <>
      <header className="topbar">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true" />
          SatPayload Studio
        </div>
        <div className="spacer" />
        <ThemeToggle />
      </header>
      <main className="start" data-testid="start-screen">
        <div className="start-inner">
          <div className="start-hero">
            <div>
              <h1>Design a telemetry payload</h1>
              <p>
                Lay out the fields your device sends, see every wire format's size live against satellite and LPWAN
                limits, and inspect where each byte goes.
              </p>
            </div>
            <div className="start-actions">
              <button type="button" className="btn" data-testid="open-file" onClick={openFile}>
                Open file…
              </button>
              <button type="button" className="btn primary" data-testid="new-empty" onClick={() => void createEmpty()}>
                New empty layout
              </button>
              <input
                ref={fileInput}
                type="file"
                accept=".json,application/json"
                hidden
                data-testid="file-input"
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  e.target.value = "";
                  if (file) void importFile(file);
                }}
              />
            </div>
          </div>

          {deletionError && (
            <div className="error-box" role="alert" data-testid="deletion-error">
              <div>{deletionError}</div>
              <div className="spacer" />
              <button
                type="button"
                className="icon-btn"
                aria-label="Dismiss"
                onClick={() => useDeletion.setState({ error: null })}
              >
                <Icon name="close" />
              </button>
            </div>
          )}

          {error && (
            <div className="error-box" role="alert" data-testid="start-error">
              <div>
                <div className="title">{error.title}</div>
                <div>{error.detail}</div>
              </div>
              <div className="spacer" />
              <button
                type="button"
                className="icon-btn"
                aria-label="Dismiss"
                onClick={() => useSession.setState({ startError: null })}
              >
                <Icon name="close" />
              </button>
            </div>
          )}

          <section aria-labelledby="presets-title">
            <h2 className="section-title" id="presets-title">
              Start from a preset
            </h2>
            {presets.error ? (
              <div className="error-box">Presets could not be loaded: {presets.error}</div>
            ) : !presets.data ? (
              <div className="empty">Loading presets…</div>
            ) : presets.data.length === 0 ? (
              <div className="card empty">
                <strong>No presets</strong>
                This host ships no preset layouts.
              </div>
            ) : (
              <div className="preset-grid">
                {presets.data.map((p) => {
                  const n = fieldCount(p.layout);
                  return (
                    <button
                      key={p.id}
                      type="button"
                      className="card preset-card"
                      data-testid={`preset-${p.id}`}
                      onClick={() => void createProject(p.name, p.layout)}
                    >
                      <h3>{p.name}</h3>
                      <p>{p.description}</p>
                      <span className="meta">{n === null ? "" : `${n} fields`}</span>
                    </button>
                  );
                })}
              </div>
            )}
          </section>

          <section aria-labelledby="recent-title">
            <h2 className="section-title" id="recent-title">
              Recent projects
            </h2>
            <div className="card">
              {recent.error ? (
                <div className="empty">Recent projects could not be loaded: {recent.error}</div>
              ) : !recent.data ? (
                <div className="empty">Loading…</div>
              ) : recent.data.length === 0 ? (
                <div className="empty" data-testid="recent-empty">
                  <strong>No projects yet</strong>
                  Start from a preset or an empty layout; projects are saved automatically as you edit.
                </div>
              ) : (
                <ul className="recent-list" data-testid="recent-list">
                  {recent.data.map((p) => (
                    <li key={p.id} className="recent-row">
                      <button
                        type="button"
                        className="recent-item"
                        data-testid={`recent-${p.id}`}
                        onClick={() => void openProject(p.id)}
                      >
                        <span className="name">{p.name}</span>
                        <span className="muted num">v{p.version}</span>
                        <span className="muted">{when(p.updatedAt)}</span>
                      </button>
                      <button
                        type="button"
                        className="icon-btn"
                        data-testid={`delete-${p.id}`}
                        title={`Delete "${p.name}" (you can undo, or restore it from Recently deleted for a week)`}
                        aria-label={`Delete ${p.name}`}
                        onClick={() => void deleteProject(p.id, p.name)}
                      >
                        <Icon name="delete" />
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </section>

          <RecentlyDeleted revision={revision} />
        </div>
      </main>
      <UndoToast />
    </>
  );
}
