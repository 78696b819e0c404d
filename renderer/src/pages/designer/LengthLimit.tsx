// Text inputs with a length limit: the browser silently cuts what is pasted past `maxLength`, so the cut is said
// next to the field (how long the text was, what was kept) instead of passing unnoticed.
import { useState, type ClipboardEvent } from "react";

type TextElement = HTMLInputElement | HTMLTextAreaElement;

export function useLengthLimit(maxLength: number | undefined) {
  /** the length the pasted text would have made, when it was cut */
  const [cutFrom, setCutFrom] = useState<number | null>(null);
  const onPaste = (e: ClipboardEvent<TextElement>) => {
    if (maxLength === undefined) return;
    const el = e.currentTarget;
    const replaced = (el.selectionEnd ?? el.value.length) - (el.selectionStart ?? el.value.length);
    const would = el.value.length - replaced + e.clipboardData.getData("text/plain").length;
    setCutFrom(would > maxLength ? would : null);
  };
  /** call with every new value: a shorter text clears the notice */
  const seen = (value: string) => {
    if (maxLength !== undefined && value.length < maxLength && cutFrom !== null) setCutFrom(null);
  };
  return { onPaste, seen, cutFrom };
}

export function LengthNotice({
  length,
  maxLength,
  cutFrom,
  testId,
}: {
  length: number;
  maxLength: number | undefined;
  cutFrom: number | null;
  testId?: string | undefined;
}) {
  if (maxLength === undefined || length < maxLength) return null;
  return (
    <span className="field-msg" role="status" data-testid={testId ? `${testId}-cut` : "length-cut"}>
      {cutFrom !== null
        ? `Cut to ${maxLength.toLocaleString("en-US")} characters: the pasted text made ${cutFrom.toLocaleString("en-US")}.`
        : `${maxLength.toLocaleString("en-US")} characters at most.`}
    </span>
  );
}
