// The browser every e2e test and screenshot script drives: Debian's Chromium, headless, with nothing
// that reaches the network on its own (docs: ../shared/docs/architecture.md, Tests).
export const CHROMIUM = process.env.SATPAYLOAD_CHROMIUM ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
