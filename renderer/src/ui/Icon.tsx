// Small stroke icons drawn inline, so they render the same everywhere (no icon font, nothing to load under the CSP).
const PATHS = {
  up: "M8 13V3M4 7l4-4 4 4",
  down: "M8 3v10M4 9l4 4 4-4",
  indent: "M3 3v10M6 8h7M10 5l3 3-3 3",
  outdent: "M13 3v10M10 8H3M6 5L3 8l3 3",
  duplicate: "M5.5 5.5h7v7h-7zM3.5 10.5v-7h7",
  delete: "M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.7 8.5h5.6l.7-8.5",
  undo: "M6 4L3 7l3 3M3 7h6.5a3.5 3.5 0 010 7H8",
  redo: "M10 4l3 3-3 3M13 7H6.5a3.5 3.5 0 000 7H8",
  sun: "M8 5a3 3 0 100 6 3 3 0 000-6zM8 1.5v1.5M8 13v1.5M1.5 8H3M13 8h1.5M3.4 3.4l1 1M11.6 11.6l1 1M3.4 12.6l1-1M11.6 4.4l1-1",
  moon: "M13 9.5A5.5 5.5 0 016.5 3a5.5 5.5 0 106.5 6.5z",
  close: "M4 4l8 8M12 4l-8 8",
  chevronLeft: "M10 3L5 8l5 5",
  chevronRight: "M6 3l5 5-5 5",
  grip: "M6 4h.01M10 4h.01M6 8h.01M10 8h.01M6 12h.01M10 12h.01",
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 14 }: { name: IconName; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth={name === "grip" ? 2.4 : 1.5}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
