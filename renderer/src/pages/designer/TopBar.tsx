// Designer header: back to projects, project name (click to rename), undo/redo, autosave state, export, delete,
// theme.
import { useState } from "react";
import { LengthNotice, useLengthLimit } from "./LengthLimit.tsx";
import { BackLink } from "../../nav/BackLink.tsx";
import { resolveConflict } from "../../session/conflicts.ts";
import { deleteProject } from "../../session/deletion.ts";
import { exportLayout } from "../../session/layoutFile.ts";
import { renameProject } from "../../session/rename.ts";
import { useSession, type SaveStatus } from "../../session/sessionStore.ts";
import { useDesigner } from "../../state/layoutStore.ts";
import { Icon } from "../../ui/Icon.tsx";
import { ThemeToggle } from "../../ui/ThemeToggle.tsx";

/** projects.rename accepts 1–128 characters (host/api/contract.ts) */
const PROJECT_NAME_MAX = 128;

const isMac = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);
const MOD = isMac ? "⌘" : "Ctrl+";

function SaveState() {
  const save = useSession((s) => s.save);
  const version = useSession((s) => s.version);
  const label: Record<SaveStatus, string> = {
    saved: "Saved",
    pending: "Unsaved changes",
    saving: "Saving…",
    invalid: `Not saved: ${save.message ?? "fix the problems first"}`,
    error: `Save failed: ${save.message ?? "unknown error"}`,
    conflict: `Conflict: ${save.message ?? "saved elsewhere"}`,
  };
  const title =
    save.status === "saved" && save.savedAt
      ? `Saved at ${new Date(save.savedAt).toLocaleTimeString()}`
      : label[save.status];
  return (
    <span
      className="save-state"
      data-testid="save-state"
      data-status={save.status}
      data-version={version}
      title={title}
      role="status"
      aria-live="polite"
    >
      <span className="dot" aria-hidden="true" />
      {label[save.status]}
    </span>
  );
}

function ProjectName() {
  const name = useDesigner((s) => s.projectName);
  const [editing, setEditing] = useState<string | null>(null);
  const limit = useLengthLimit(PROJECT_NAME_MAX);
  const commit = () => {
    if (editing !== null) void renameProject(editing);
    setEditing(null);
  };
  return (
    <div className="project-name">
      {editing === null ? (
        <button
          type="button"
          className="name"
          data-testid="project-name"
          title="Rename the project: its name is the layout's name too (exports, code headers, the report)"
          onClick={() => setEditing(name)}
        >
          {name}
        </button>
      ) : (
        <input
          className="input"
          data-testid="project-name-input"
          aria-label="Project and layout name"
          autoFocus
          maxLength={PROJECT_NAME_MAX}
          value={editing}
          onPaste={limit.onPaste}
          onChange={(e) => {
            limit.seen(e.target.value);
            setEditing(e.target.value);
          }}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === "Enter") commit();
            else if (e.key === "Escape") setEditing(null);
          }}
        />
      )}
      {editing !== null ? (
        <LengthNotice
          length={editing.length}
          maxLength={PROJECT_NAME_MAX}
          cutFrom={limit.cutFrom}
          testId="project-name-input"
        />
      ) : null}
    </div>
  );
}

export function TopBar() {
  const canUndo = useDesigner((s) => s.history.past.length > 0);
  const canRedo = useDesigner((s) => s.history.future.length > 0);
  const undo = useDesigner((s) => s.undo);
  const redo = useDesigner((s) => s.redo);
  const shell = useSession((s) => s.shell);
  return (
    <header className="topbar">
      <BackLink testId="home" />
      <span className="divider-v" aria-hidden="true" />
      <ProjectName />
      <SaveState />
      <div className="spacer" />
      <button
        type="button"
        className="icon-btn"
        data-testid="undo"
        title={`Undo (${MOD}Z)`}
        aria-label="Undo"
        disabled={!canUndo}
        onClick={undo}
      >
        <Icon name="undo" size={16} />
      </button>
      <button
        type="button"
        className="icon-btn"
        data-testid="redo"
        title={`Redo (${isMac ? "⇧⌘Z" : "Ctrl+Y / Ctrl+Shift+Z"})`}
        aria-label="Redo"
        disabled={!canRedo}
        onClick={redo}
      >
        <Icon name="redo" size={16} />
      </button>
      <span className="divider-v" aria-hidden="true" />
      <button
        type="button"
        className="btn"
        data-testid="export-layout"
        title="The layout as a .satlayout.json file you can commit"
        onClick={() => void exportLayout()}
      >
        {shell === "electron" ? "Save layout file…" : "Download layout"}
      </button>
      <DeleteProject />
      <ThemeToggle />
    </header>
  );
}

/** Deletes the open project: back on the start screen, the toast offers Undo (issue #26). */
function DeleteProject() {
  const id = useDesigner((s) => s.projectId);
  const name = useDesigner((s) => s.projectName);
  if (!id) return null;
  return (
    <button
      type="button"
      className="icon-btn"
      data-testid="delete-project"
      title="Delete this project (Undo on the start screen; restorable for a week)"
      aria-label="Delete this project"
      onClick={() => void deleteProject(id, name)}
    >
      <Icon name="delete" size={16} />
    </button>
  );
}

export function Banners() {
  const save = useSession((s) => s.save);
  const notice = useSession((s) => s.notice);
  return (
    <>
      {save.status === "conflict" && (
        <div className="banner attention" role="alert" data-testid="conflict-banner">
          <span>
            <strong>This project changed elsewhere.</strong> {save.message} Your edits are kept here until you choose.
          </span>
          <span className="spacer" />
          <button
            type="button"
            className="btn small"
            data-testid="conflict-reload"
            onClick={() => void resolveConflict("reload")}
          >
            Load the other version
          </button>
          <button
            type="button"
            className="btn small primary"
            data-testid="conflict-overwrite"
            onClick={() => void resolveConflict("overwrite")}
          >
            Keep mine
          </button>
        </div>
      )}
      {notice && (
        <div
          className={`banner ${notice.kind === "error" ? "attention" : "info"}`}
          role={notice.kind === "error" ? "alert" : "status"}
          data-testid="notice"
        >
          <span>{notice.text}</span>
          <span className="spacer" />
          <button
            type="button"
            className="icon-btn"
            aria-label="Dismiss"
            onClick={() => useSession.setState({ notice: null })}
          >
            <Icon name="close" />
          </button>
        </div>
      )}
    </>
  );
}
