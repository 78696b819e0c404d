// Under the evolution tab's version pickers: which version the check compares with and why, and the controls
// to name that version and mark it as the one the devices run (kept by autosave and pruning).
import { useState } from "react";
import type { VersionInfo } from "./exportStore.ts";
import { markDeployed, nameVersion } from "./versionMarks.ts";

/** "v12 “Field trial”" */
export function versionTitle(v: VersionInfo): string {
  return v.label ? `v${v.version} “${v.label}”` : `v${v.version}`;
}

function basis(base: VersionInfo, deployed: VersionInfo | undefined, newest: VersionInfo | undefined): string {
  if (base.deployed) return `Comparing with ${versionTitle(base)}, the version marked as deployed.`;
  if (deployed)
    return `Comparing with ${versionTitle(base)}, which you chose; the deployed version is ${versionTitle(deployed)}.`;
  const which = base.version === newest?.version ? "the newest saved version" : "the version before the newest";
  return `Comparing with ${versionTitle(base)}, ${which}: no version is marked as deployed yet. Mark the one your devices run, and the check compares with it from then on.`;
}

export function DeployedVersion({ versions, base }: { versions: VersionInfo[]; base: VersionInfo }) {
  const deployed = versions.find((v) => v.deployed);
  // the text being typed, for the version it was typed for (another base starts from that one's name)
  const [draft, setDraft] = useState<{ version: number; text: string } | null>(null);
  const text = draft?.version === base.version ? draft.text : (base.label ?? "");
  const unchanged = text.trim() === (base.label ?? "");
  const save = async () => {
    if (await nameVersion(base.version, text)) setDraft(null);
  };
  return (
    <div className="diff-basis">
      <p data-testid="diff-basis" data-base={base.version} data-deployed={deployed?.version ?? ""}>
        {basis(base, deployed, versions[0])}
      </p>
      <div className="diff-basis-controls">
        <label className="export-opt-label" htmlFor="version-label">
          Name of v{base.version}
        </label>
        <input
          id="version-label"
          className="input"
          data-testid="version-label"
          maxLength={80}
          placeholder="e.g. Field trial firmware 1.2"
          value={text}
          onChange={(e) => setDraft({ version: base.version, text: e.target.value })}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !unchanged) void save();
          }}
        />
        <button
          type="button"
          className="btn small"
          data-testid="version-label-save"
          disabled={unchanged}
          onClick={() => void save()}
        >
          Save name
        </button>
        {base.deployed ? (
          <button
            type="button"
            className="btn small ghost"
            data-testid="unmark-deployed"
            onClick={() => void markDeployed(null)}
          >
            Unmark deployed
          </button>
        ) : (
          <button
            type="button"
            className="btn small"
            data-testid="mark-deployed"
            title="The version your devices run: the check compares with it, and it is never pruned"
            onClick={() => void markDeployed(base.version)}
          >
            Mark v{base.version} as deployed
          </button>
        )}
      </div>
      <p className="muted">Named and deployed versions are kept for good; other versions, the newest 200.</p>
    </div>
  );
}
