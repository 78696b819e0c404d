// The Export page's tabs, shown in its own tab row.
export const EXPORT_TABS = [
  { id: "files", label: "Code and schemas" },
  { id: "evolution", label: "Schema evolution" },
] as const;
