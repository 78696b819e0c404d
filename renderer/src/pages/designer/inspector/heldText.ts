// The text of an inspector control that is parsed before it reaches the layout. Text that parses goes to
// the layout; text that does not stays in the control with its message, is held in the pending inputs
// (the header says "Not saved", the draft keeps it) and comes back when the control is shown again.
import { createContext, useContext, useEffect, useRef, useState, type KeyboardEvent } from "react";
import { useDesigner } from "../../../state/layoutStore.ts";
import { fieldShape, holdInput, pendingInput, releaseInput } from "../../../state/pendingInputs.ts";
import { locate } from "../../../state/tree.ts";

/** The field the inspector's controls edit; null for the layout's own settings. */
export const InputOwner = createContext<string | null>(null);

export interface HeldText {
  text: string;
  /** why the text is not in the layout, or null */
  problem: string | null;
  /** text that is not in the layout: shown with its message and held until it is fixed */
  hold(text: string, problem: string): void;
  /** text that is (or is about to be) in the layout */
  accept(text: string): void;
  /** for the input: Escape gives held text up for what the layout holds */
  onKeyDown(e: KeyboardEvent<HTMLInputElement>): void;
}

/**
 * `shown` is the layout's value as text; `control` names the control (its test id). When the layout's
 * value changes from elsewhere (undo, a type switch) the control follows it unless its text already
 * means that value (`means`), so a number being typed is never rewritten under the cursor.
 */
export function useHeldText(
  control: string | undefined,
  shown: string,
  means: (text: string) => boolean = (t) => t === shown,
): HeldText {
  const owner = useContext(InputOwner);
  const held = control ? pendingInput(owner, control) : undefined;
  const [text, setText] = useState(held?.text ?? shown);
  const [problem, setProblem] = useState<string | null>(held?.message ?? null);
  const last = useRef(shown);

  const release = () => {
    if (control) releaseInput(owner, control);
  };
  const revert = () => {
    setText(shown);
    setProblem(null);
    release();
  };

  useEffect(() => {
    // on mount, and on renders where the layout's value did not change, the text stays (held text included)
    if (last.current === shown) return;
    last.current = shown;
    if (!means(text)) revert();
    // not on `text`: a keystroke that does not parse would be replaced by the layout's value at once,
    // so a wrong entry could never be seen with its message next to it
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shown]);

  return {
    text,
    problem,
    hold(t, why) {
      setText(t);
      setProblem(why);
      if (!control) return;
      const field = owner === null ? undefined : locate(useDesigner.getState().history.present.fields, owner)?.field;
      holdInput({ fieldId: owner, control, text: t, message: why, shape: fieldShape(field) });
    },
    accept(t) {
      setText(t);
      setProblem(null);
      release();
    },
    onKeyDown(e) {
      if (e.key !== "Escape" || problem === null) return;
      e.stopPropagation();
      revert();
    },
  };
}
