// Left column of the Export page: which exports to generate, their options, and where the files go.
import { CODECS, FORMAT_IDS, type FormatId, formatsWith } from "#codecs";
import {
  useExport,
  selectAll,
  setOption,
  toggleExporter,
  toggleInList,
  downloadZip,
  saveToFolder,
  type ExportOptions,
} from "./exportStore.ts";
import { useSession } from "../../session/sessionStore.ts";

const SERVERS = [
  ["ttn", "TTN v3"],
  ["chirpstack", "ChirpStack v4"],
  ["ts013", "TS013"],
] as const;
const labelled = (ids: readonly FormatId[]) => ids.map((id) => [id, CODECS[id].info.label] as const);
const DECODER_FORMATS = labelled(formatsWith("networkDecoder"));
const KAITAI_FORMATS = labelled(formatsWith("kaitai"));
const SERVICE_FORMATS = FORMAT_IDS;
const FIRMWARE_FORMATS = formatsWith("firmware");

function Checks({
  name,
  list,
  value,
}: {
  name: "servers" | "decoderFormats" | "kaitaiFormats";
  list: readonly (readonly [string, string])[];
  value: string[];
}) {
  const order = list.map(([id]) => id);
  return (
    <div className="export-checks">
      {list.map(([id, label]) => (
        <label key={id} className="check">
          <input
            type="checkbox"
            data-testid={`opt-${name}-${id}`}
            checked={value.includes(id)}
            onChange={() => toggleInList(name, id, order)}
          />
          {label}
        </label>
      ))}
    </div>
  );
}

function Options({ options, selected }: { options: ExportOptions; selected: string[] }) {
  const any = ["network-decoders", "kaitai", "decoder-config", "firmware-esp32"].some((id) => selected.includes(id));
  if (!any) return null;
  return (
    <section className="export-options" aria-label="Export options">
      <h3>Options</h3>
      {selected.includes("network-decoders") && (
        <>
          <div className="export-opt-label">Network servers</div>
          <Checks name="servers" list={SERVERS} value={options.servers} />
          <div className="export-opt-label">Decoders for the bytes of</div>
          <Checks name="decoderFormats" list={DECODER_FORMATS} value={options.decoderFormats} />
        </>
      )}
      {selected.includes("kaitai") && (
        <>
          <div className="export-opt-label">Kaitai specs for</div>
          <Checks name="kaitaiFormats" list={KAITAI_FORMATS} value={options.kaitaiFormats} />
        </>
      )}
      {selected.includes("firmware-esp32") && (
        <div className="export-opt-grid">
          <label htmlFor="opt-fw-format" className="export-opt-label">
            Firmware encodes
          </label>
          <select
            id="opt-fw-format"
            className="select"
            data-testid="opt-firmware-format"
            value={options.format}
            onChange={(e) => setOption("format", e.target.value)}
          >
            {FIRMWARE_FORMATS.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </div>
      )}
      {selected.includes("decoder-config") && (
        <div className="export-opt-grid">
          <label htmlFor="opt-format" className="export-opt-label">
            Devices send
          </label>
          <select
            id="opt-format"
            className="select"
            data-testid="opt-service-format"
            value={options.serviceFormat}
            onChange={(e) => setOption("serviceFormat", e.target.value)}
          >
            {SERVICE_FORMATS.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
          <label htmlFor="opt-device" className="export-opt-label">
            Device key
          </label>
          <input
            id="opt-device"
            className="input mono"
            data-testid="opt-device-key"
            value={options.deviceKey}
            maxLength={128}
            onChange={(e) => setOption("deviceKey", e.target.value)}
            title="Matched against the uplink's device id (DevEUI, terminal id …); * matches every device"
          />
        </div>
      )}
    </section>
  );
}

function Destination() {
  const folder = useExport((s) => s.folder);
  const busy = useExport((s) => s.busy);
  const files = useExport((s) => s.generated?.files.length ?? 0);
  const shell = useSession((s) => s.shell);
  return (
    <section className="export-dest" aria-label="Save the files">
      <button
        type="button"
        className="btn primary"
        data-testid="download-zip"
        disabled={!files || busy.zip}
        onClick={() => void downloadZip()}
      >
        {busy.zip ? "Preparing zip…" : `Download zip (${files} file${files === 1 ? "" : "s"})`}
      </button>
      <label htmlFor="export-folder" className="export-opt-label">
        or save into a folder {shell === "browser" ? "on the computer running the studio" : ""}
      </label>
      <div className="export-folder-row">
        <input
          id="export-folder"
          className="input mono"
          data-testid="folder-input"
          placeholder="/home/me/firmware/export"
          value={folder}
          onChange={(e) => useExport.setState({ folder: e.target.value })}
          onKeyDown={(e) => {
            if (e.key === "Enter") void saveToFolder();
          }}
        />
        <button
          type="button"
          className="btn"
          data-testid="save-folder"
          disabled={!files || !folder.trim() || busy.save}
          onClick={() => void saveToFolder()}
        >
          {busy.save ? "Saving…" : "Save"}
        </button>
      </div>
    </section>
  );
}

export function ExportPicker() {
  const exporters = useExport((s) => s.exporters);
  const selected = useExport((s) => s.selected);
  const options = useExport((s) => s.options);
  const generated = useExport((s) => s.generated);
  const problems = generated?.problems ?? [];
  return (
    <aside className="export-picker" data-testid="export-picker">
      <div className="export-picker-head">
        <h3>Exports</h3>
        <span className="spacer" />
        <button type="button" className="btn ghost small" onClick={() => selectAll(true)}>
          All
        </button>
        <button type="button" className="btn ghost small" onClick={() => selectAll(false)}>
          None
        </button>
      </div>
      {exporters.length === 0 ? (
        <div className="empty">Loading the export list…</div>
      ) : (
        <ul className="export-list">
          {exporters.map((e) => {
            const problem = problems.find((p) => p.exporter === e.id);
            return (
              <li key={e.id}>
                <label className={`export-item${problem ? " has-problem" : ""}`} title={e.description}>
                  <input
                    type="checkbox"
                    data-testid={`export-item-${e.id}`}
                    checked={selected.includes(e.id)}
                    onChange={() => toggleExporter(e.id)}
                  />
                  <span className="export-item-text">
                    <span className="export-item-label">{e.label}</span>
                    <span className="export-item-desc">
                      {problem ? `Not possible for this layout: ${problem.message}` : e.description}
                    </span>
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
      <Options options={options} selected={selected} />
      <Destination />
    </aside>
  );
}
