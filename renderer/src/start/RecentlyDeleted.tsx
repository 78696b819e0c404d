// The start screen's way back from a delete: a toast with Undo right after it, and the "Recently deleted" list
// (projects the host keeps for a week) with Restore and Delete now.
import { useEffect } from "react";
import type { DeletedProject } from "#host/api/contract.ts";
import { useHostList } from "./useHostList.ts";
import { dismissUndo, purgeProject, restoreProject, undoDelete, useDeletion } from "../session/deletion.ts";
import { useSession } from "../session/sessionStore.ts";
import { Icon } from "../ui/Icon.tsx";

/** How long the toast offers Undo; the project stays restorable from the list afterwards. */
const UNDO_SHOWN_MS = 12_000;

function day(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

export function UndoToast() {
  const undo = useDeletion((s) => s.undo);
  useEffect(() => {
    if (!undo) return;
    const t = setTimeout(dismissUndo, UNDO_SHOWN_MS);
    return () => clearTimeout(t);
  }, [undo]);
  if (!undo) return null;
  return (
    <div className="toast" role="status" data-testid="undo-toast">
      <span>
        Deleted <strong>{undo.name}</strong>. It stays in Recently deleted for a week.
      </span>
      <button type="button" className="btn small" data-testid="undo-delete" onClick={() => void undoDelete()}>
        Undo
      </button>
      <button type="button" className="icon-btn" aria-label="Dismiss" onClick={dismissUndo}>
        <Icon name="close" />
      </button>
    </div>
  );
}

export function RecentlyDeleted({ revision }: { revision: number }) {
  const api = useSession((s) => s.api)!;
  const deleted = useHostList<DeletedProject[]>(() => api.call("projects.deleted", {}), revision);
  // nothing deleted in the last week: the section is not there (the toast names it when there is)
  if (!deleted.error && !deleted.data?.length) return null;
  return (
    <section aria-labelledby="deleted-title" data-testid="recently-deleted">
      <h2 className="section-title" id="deleted-title">
        Recently deleted
      </h2>
      <div className="card">
        {deleted.error ? (
          <div className="empty">Recently deleted projects could not be loaded: {deleted.error}</div>
        ) : (
          <ul className="recent-list">
            {deleted.data!.map((p) => (
              <li key={p.id} className="recent-row deleted-row" data-testid={`deleted-${p.id}`}>
                <span className="name">{p.name}</span>
                <span className="muted">deleted {day(p.deletedAt)}</span>
                <span className="muted">removed for good {day(p.purgeAt)}</span>
                <button
                  type="button"
                  className="btn small"
                  data-testid={`restore-${p.id}`}
                  onClick={() => void restoreProject(p.id, p.name)}
                >
                  Restore
                </button>
                <button
                  type="button"
                  className="btn small ghost"
                  data-testid={`purge-${p.id}`}
                  title="Removes the project and all its versions now; this cannot be undone"
                  onClick={() => {
                    if (window.confirm(`Remove "${p.name}" and all its versions for good? This cannot be undone.`))
                      void purgeProject(p.id, p.name);
                  }}
                >
                  Delete now
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
