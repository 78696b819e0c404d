// A chart as a PNG: its SVG with every themed colour resolved (CSS variables mean nothing outside the page), plus the
// HTML legend recharts draws beside it, painted at the positions the page laid them out.

const SVG_STYLE = [
  "fill",
  "fill-opacity",
  "stroke",
  "stroke-width",
  "stroke-dasharray",
  "stroke-opacity",
  "opacity",
  "font-family",
  "font-size",
  "font-weight",
  "text-anchor",
  "dominant-baseline",
];

function svgToImage(svg: SVGSVGElement): Promise<HTMLImageElement> {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const src = [svg, ...svg.querySelectorAll("*")];
  const dst = [clone, ...clone.querySelectorAll("*")];
  src.forEach((el, i) => {
    const cs = getComputedStyle(el);
    const style = SVG_STYLE.map((p) => `${p}:${cs.getPropertyValue(p)}`).join(";");
    dst[i]!.setAttribute("style", style);
  });
  const { width, height } = svg.getBoundingClientRect();
  clone.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  clone.setAttribute("width", String(width));
  clone.setAttribute("height", String(height));
  const url = URL.createObjectURL(new Blob([new XMLSerializer().serializeToString(clone)], { type: "image/svg+xml" }));
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => {
      URL.revokeObjectURL(url);
      resolve(img);
    };
    img.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error("the chart could not be drawn as an image"));
    };
    img.src = url;
  });
}

const transparent = (c: string) => c === "transparent" || c === "rgba(0, 0, 0, 0)";

/** Renders the chart's figure (caption, SVGs, coloured swatches and legend text; not the screen-only buttons) into a PNG at `scale`× resolution. */
export async function chartToPng(container: HTMLElement, scale = 2): Promise<Blob> {
  const box = container.getBoundingClientRect();
  const canvas = document.createElement("canvas");
  canvas.width = Math.ceil(box.width * scale);
  canvas.height = Math.ceil(box.height * scale);
  const ctx = canvas.getContext("2d");
  if (!ctx) throw new Error("no 2D canvas");
  ctx.scale(scale, scale);
  const bg = getComputedStyle(container).backgroundColor;
  ctx.fillStyle = transparent(bg) ? getComputedStyle(document.body).backgroundColor : bg;
  ctx.fillRect(0, 0, box.width, box.height);

  for (const el of container.querySelectorAll("*")) {
    if (el.closest("svg") !== el && el.closest("svg")) continue;
    const r = el.getBoundingClientRect();
    const x = r.left - box.left;
    const y = r.top - box.top;
    if (el instanceof SVGSVGElement) {
      if (r.width > 0 && r.height > 0) ctx.drawImage(await svgToImage(el), x, y, r.width, r.height);
      continue;
    }
    const cs = getComputedStyle(el);
    if (cs.visibility === "hidden" || cs.display === "none" || el.closest(".screen-only")) continue;
    if (!transparent(cs.backgroundColor) && r.width < box.width) {
      ctx.fillStyle = cs.backgroundColor;
      ctx.fillRect(x, y, r.width, r.height);
    }
    if (parseFloat(cs.borderTopWidth) > 0 && cs.borderTopStyle !== "none" && r.height <= 2) {
      ctx.strokeStyle = cs.borderTopColor;
      ctx.lineWidth = parseFloat(cs.borderTopWidth);
      ctx.setLineDash(cs.borderTopStyle === "dashed" ? [4, 3] : []);
      ctx.beginPath();
      ctx.moveTo(x, y + ctx.lineWidth / 2);
      ctx.lineTo(x + r.width, y + ctx.lineWidth / 2);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    for (const n of el.childNodes) {
      // not trimmed: a text node's box starts where its own leading space does
      const text = n.nodeType === Node.TEXT_NODE ? (n.textContent ?? "").replace(/\s+/g, " ") : "";
      if (!text.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      const tr = range.getBoundingClientRect();
      ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      ctx.fillStyle = cs.color;
      ctx.textBaseline = "middle";
      ctx.fillText(text, tr.left - box.left, tr.top - box.top + tr.height / 2);
    }
  }
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("PNG encoding failed"))), "image/png"),
  );
}
