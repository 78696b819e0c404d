// Where to send and where to read: every endpoint with a copy button, and a ready curl line.
import { useState } from "react";
import type { StackEndpoints } from "#host/api/stack.ts";
import { copyText, layoutLabel } from "./format.ts";
import { useStack } from "./stackStore.ts";

function Row({ label, method, url, testId }: { label: string; method?: string; url: string; testId: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <li className="stack-endpoint">
      <span className="stack-endpoint-label">{label}</span>
      {method ? <span className="badge">{method}</span> : <span />}
      <code className="mono stack-endpoint-url" data-testid={testId} title={url}>
        {url}
      </code>
      <button
        type="button"
        className="btn small"
        data-testid={`${testId}-copy`}
        aria-label={`Copy ${label}`}
        onClick={() =>
          void copyText(url).then((ok) => {
            setCopied(ok);
            setTimeout(() => setCopied(false), 1500);
          })
        }
      >
        {copied ? "Copied" : "Copy"}
      </button>
    </li>
  );
}

export function Endpoints({ e }: { e: StackEndpoints }) {
  const names = useStack((s) => s.layoutNames);
  const curl = `curl -X POST --data-binary @message.bin -H 'Content-Type: application/x-protobuf' -H 'X-Satpayload-Layout: paper' ${e.ingest}`;
  return (
    <section className="card stack-card" data-testid="stack-endpoints" aria-label="Endpoints">
      <header className="stack-card-head">
        <h2 className="section-title">Endpoints</h2>
      </header>
      <ul className="stack-endpoints">
        <Row label="Ingest" method="POST" url={e.ingest} testId="ep-ingest" />
        <Row label="Base64 envelope" method="POST" url={e.ingestBase64} testId="ep-ingest-base64" />
        {e.routes.map((r) => (
          <Row
            key={r.url}
            label={`${layoutLabel(r.layout, names)} · ${r.format}${r.body === "envelope" ? " (portal JSON)" : ""}${r.batch ? ` · batches (${r.batch}), a record per reading` : ""}`}
            method="POST"
            url={r.url}
            testId={`ep-route-${new URL(r.url).pathname.slice(1).replace(/\//g, "-")}`}
          />
        ))}
        {e.mqtt ? <Row label="MQTT" method="QoS 1" url={e.mqtt} testId="ep-mqtt" /> : null}
        {e.coap ? <Row label="CoAP" method="POST" url={e.coap} testId="ep-coap" /> : null}
        <Row label="Latest per device" method="GET" url={e.latest} testId="ep-latest" />
        <Row label="Stats" method="GET" url={e.stats} testId="ep-stats" />
        <Row label="Events (SSE)" method="GET" url={e.events} testId="ep-events" />
        <Row label="CSE records" url={e.container} testId="ep-container" />
        <Row label="Try it" url={curl} testId="ep-curl" />
      </ul>
      <p className="faint stack-small stack-hint">
        Name the layout in <code>X-Satpayload-Layout</code> (a preset id, a project&apos;s name or id) and the format by{" "}
        <code>Content-Type</code> or <code>X-Satpayload-Format</code>; <code>X-Satpayload-Message-Id</code> makes
        resends harmless. Device routes fix layout and format: unmodified clients post there and get 200.
        {e.mqtt || e.coap ? (
          <>
            {" "}
            MQTT: publish to <code>satpayload/[&lt;device&gt;/]&lt;layout&gt;/&lt;format&gt;[/&lt;message id&gt;]</code>
            ; CoAP: POST <code>/ingest?layout=…&amp;format=…</code> or a device route&apos;s path. Both are acknowledged
            after the same durable commit.
          </>
        ) : null}
      </p>
    </section>
  );
}
