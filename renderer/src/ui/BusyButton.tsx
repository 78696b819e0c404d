// A button whose action is running: disabled (it cannot be pressed twice meanwhile) and marked aria-busy; the page
// says whether it is busy (each page keeps its actions' busy flags in its own store) and may show a spinner.
import type { ReactNode } from "react";

export function BusyButton({
  busy,
  spinnerClass,
  onClick,
  children,
  primary,
  disabled,
  testId,
  title,
}: {
  busy: boolean;
  /** the class of the spinner shown while busy; none without it */
  spinnerClass?: string;
  onClick: () => void;
  children: ReactNode;
  primary?: boolean;
  disabled?: boolean;
  testId?: string;
  title?: string;
}) {
  return (
    <button
      type="button"
      className={`btn small${primary ? " primary" : ""}`}
      data-testid={testId}
      disabled={disabled || busy}
      aria-busy={busy}
      title={title}
      onClick={onClick}
    >
      {busy && spinnerClass ? <span className={spinnerClass} aria-hidden="true" /> : null}
      {children}
    </button>
  );
}
