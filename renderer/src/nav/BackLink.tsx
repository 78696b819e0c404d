// The way back at the top left of every page, worded by one rule (backRule.ts).
import { backTarget } from "./backRule.ts";
import { go, useRoute } from "./routeStore.ts";
import { goHome } from "../session/projects.ts";
import { useSession } from "../session/sessionStore.ts";

export function BackLink({ testId }: { testId: string }) {
  const page = useRoute((s) => s.route.page);
  const projectOpen = useSession((s) => s.screen === "designer");
  const back = backTarget(page, projectOpen);
  return (
    <button
      type="button"
      className="btn ghost"
      data-testid={testId}
      data-to={back.to}
      title={back.title}
      onClick={() => (back.to === "projects" ? void goHome() : go({ page: "designer" }))}
    >
      <span className="brand-mark" aria-hidden="true" />
      <span className="sr-only">SatPayload Studio: </span>
      {back.label}
    </button>
  );
}
