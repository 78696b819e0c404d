// Middle and right of the Export page: the generated files, and the chosen one with syntax highlighting.
import { useMemo } from "react";
import { utf8Length } from "#codecs";
import { copyPreview, downloadPreview, useExport, type ExportFileView } from "./exportStore.ts";
import { highlight } from "./highlight.ts";
import { keepLast } from "../../ui/keepLast.ts";

// the file on screen when the page is left is the one shown on coming back: its tokens are kept
const highlightKept = keepLast(highlight);

function size(n: number): string {
  return n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} kB`;
}

function FileList({ files, current }: { files: ExportFileView[]; current: string | null }) {
  return (
    <nav className="export-files" aria-label="Generated files" data-testid="export-files">
      <ul>
        {files.map((f) => (
          <li key={f.path}>
            <button
              type="button"
              className="export-file"
              aria-current={f.path === current ? "true" : undefined}
              data-testid={`export-file-${f.path}`}
              onClick={() => useExport.setState({ previewPath: f.path })}
              title={f.path}
            >
              <span className="export-file-name">{f.path}</span>
              <span className="export-file-meta">
                <span className="badge">{f.language}</span>
                <span className="num">{size(utf8Length(f.content))}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Code({ file }: { file: ExportFileView }) {
  const tokens = useMemo(() => highlightKept(file.content, file.language), [file.content, file.language]);
  const lines = useMemo(() => file.content.split("\n").length, [file.content]);
  return (
    <div className="export-code-wrap">
      <pre className="export-gutter" aria-hidden="true">
        {Array.from({ length: lines }, (_, i) => `${i + 1}\n`).join("")}
      </pre>
      <pre className="export-code" data-testid="preview-code" data-path={file.path} data-language={file.language}>
        <code>
          {tokens.map((t, i) =>
            t.kind === "plain" ? (
              t.text
            ) : (
              <span key={i} className={`hl-${t.kind}`}>
                {t.text}
              </span>
            ),
          )}
        </code>
      </pre>
    </div>
  );
}

export function FilePreview() {
  const generated = useExport((s) => s.generated);
  const generating = useExport((s) => s.generating);
  const previewPath = useExport((s) => s.previewPath);
  const selected = useExport((s) => s.selected.length);
  const files = generated?.files ?? [];
  const file = files.find((f) => f.path === previewPath);
  if (!generated) {
    return (
      <div className="export-main export-empty" role="status" data-testid="export-progress">
        <div className="export-spinner" aria-hidden="true" />
        Generating the exports…
      </div>
    );
  }
  if (!selected || !files.length) {
    return (
      <div className="export-main export-empty" data-testid="export-empty">
        <strong>{selected ? "None of the chosen exports can be made for this layout" : "No export chosen"}</strong>
        <span>
          {selected
            ? "The list on the left says why for each of them."
            : "Tick one or more exports on the left to generate and preview their files."}
        </span>
      </div>
    );
  }
  return (
    <div className="export-main" data-generating={generating}>
      <FileList files={files} current={file?.path ?? null} />
      <section className="export-preview" aria-label="File preview">
        {file ? (
          <>
            <header className="export-preview-head">
              <span className="mono export-preview-path">{file.path}</span>
              <span className="muted">{file.exporter}</span>
              <span className="spacer" />
              {generating && (
                <span className="muted" role="status">
                  Updating…
                </span>
              )}
              <button type="button" className="btn small" data-testid="copy-file" onClick={() => void copyPreview()}>
                Copy
              </button>
              <button
                type="button"
                className="btn small"
                data-testid="download-file"
                title={`Save ${file.path} on its own, without the rest of the export`}
                onClick={downloadPreview}
              >
                Download this file
              </button>
            </header>
            <Code file={file} />
          </>
        ) : (
          <div className="empty">Pick a file to preview it.</div>
        )}
      </section>
    </div>
  );
}
