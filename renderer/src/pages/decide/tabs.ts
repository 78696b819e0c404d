// The decide pages: one page of the app with a tab each, every tab its own entry in the page bar.
export const DECIDE_TABS = [
  { id: "cost", label: "Fleet cost" },
  { id: "budget", label: "Budget" },
  { id: "advisor", label: "Fit advisor" },
  { id: "report", label: "Report" },
] as const;
