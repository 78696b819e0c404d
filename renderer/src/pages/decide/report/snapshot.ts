// The report page as one self-contained HTML document for the host's printer: the DOM as drawn (charts are inline
// SVG) with every stylesheet's rules inlined, and no scripts or links (the printer fetches nothing and runs nothing).

function inlinedCss(): string {
  const parts: string[] = [];
  for (const sheet of Array.from(document.styleSheets)) {
    let rules: CSSRuleList;
    try {
      rules = sheet.cssRules;
    } catch (e) {
      // a cross-origin sheet (a browser extension's) cannot be read and is not the report's
      if (e instanceof DOMException && e.name === "SecurityError") continue;
      throw e;
    }
    parts.push(Array.from(rules, (r) => r.cssText).join("\n"));
  }
  return parts.join("\n");
}

export function reportSnapshot(): string {
  const root = document.documentElement.cloneNode(true) as HTMLElement;
  for (const n of Array.from(root.querySelectorAll("script, link, style, noscript, meta[http-equiv]"))) n.remove();
  const style = document.createElement("style");
  style.textContent = inlinedCss();
  (root.querySelector("head") ?? root).append(style);
  return `<!doctype html>\n${root.outerHTML}`;
}
