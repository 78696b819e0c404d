// The name a layout goes by on the wire of the IP stacks: CoAP Uri-Path, MQTT topics, HTTP headers and
// the SCHC rule that elides them. One rule, so the rule set a device loads names the path planning prices.

/**
 * Lower-case, dashes, at most 12 characters, so a long display name does not inflate every message
 * (and stays under CoAP's 13-byte option length that would need an extended length byte).
 */
export function layoutStackId(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 12)
      .replace(/-$/, "") || "layout"
  );
}

/** The Uri-Path a device posts a layout's records to (`/telemetry/<layout>`). */
export function coapUriPath(layoutName: string): string[] {
  return ["telemetry", layoutStackId(layoutName)];
}
