// One rule for the way back at the top left of every page (issue #26, point 7): it read "Projects",
// "Designer", "← Designer" or "SatPayload Studio" depending on the page. Now: the designer goes back to
// the projects; every other page goes back to the designer while a project is open, else to the
// projects (the designer's place shows the start screen then). Same arrow, same words, same tooltip.

export interface BackTarget {
  /** "designer": show the designer's route; "projects": close the project and show the start screen */
  to: "designer" | "projects";
  label: string;
  title: string;
}

export function backTarget(page: string, projectOpen: boolean): BackTarget {
  if (page === "designer" || !projectOpen)
    return { to: page === "designer" ? "projects" : "designer", label: "← Projects", title: "All projects" };
  return { to: "designer", label: "← Designer", title: "Back to the designer" };
}
