// A page's card: a titled section with its actions at the right of the header. The page names its look with `kind`
// (`<kind>-card`, `<kind>-card-head` and `<kind>-card-body` in the page's CSS), so every page's cards are one
// component while each page keeps its own spacing.
import type { ReactNode } from "react";

export function Card({
  kind,
  title,
  testId,
  actions,
  children,
  className,
}: {
  kind: string;
  title: string;
  testId: string;
  actions?: ReactNode;
  children: ReactNode;
  /** more classes on the section (`wide`, a page's own variant) */
  className?: string;
}) {
  return (
    <section className={`card ${kind}-card${className ? ` ${className}` : ""}`} data-testid={testId} aria-label={title}>
      <header className={`${kind}-card-head`}>
        <h2 className="section-title">{title}</h2>
        <span className="spacer" />
        {actions}
      </header>
      <div className={`${kind}-card-body`}>{children}</div>
    </section>
  );
}
