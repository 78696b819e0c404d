// How long one end-to-end scenario may take. Each drives a real Chromium through the app for tens of
// seconds (the drag-and-drop build took 29–46 s in CI-like runs under a 2-CPU burner, and 61 s with
// more work beside it), so vitest's 60 s default for unit tests is too tight: a scenario gets 180 s,
// and a test that needs more says so itself. Timeouts bound a hang; they never measure speed.
export const SCENARIO = { timeout: 180_000 } as const;
