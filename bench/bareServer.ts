// The baseline of the ingest benchmark: the least a Node HTTP server can do per request (read the
// body, answer), as its own process. `--m2m` answers like a CSE that stored the contentInstance, so
// the decoder's forwarder can be measured without a real CSE's cost.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const m2m = process.argv.includes("--m2m");
const body = m2m ? '{"m2m:cin":{}}' : '{"ok":true}';
const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(m2m ? 201 : 200, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      ...(m2m ? { "x-m2m-rsc": "2001" } : {}),
    });
    res.end(body);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(
    `${JSON.stringify({ event: "listening", url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`,
  );
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
