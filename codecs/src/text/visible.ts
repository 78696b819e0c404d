// Whether a name shows anything on screen. Spaces, zero-width characters, joiners, control and format
// characters, combining marks on their own and the blank fillers (Hangul filler, Braille blank) all draw
// nothing a person can read, so a name made only of them leaves an unlabelled row.

const INVISIBLE = /[\p{White_Space}\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cf}\p{Cs}\p{Z}\p{M}\u2800]/u;

/** Printable ASCII other than the space: the common case, answered without the Unicode tables. */
const ASCII_VISIBLE = /[!-~]/;

export function hasVisibleCharacter(text: string): boolean {
  if (ASCII_VISIBLE.test(text)) return true;
  for (const ch of text) if (!INVISIBLE.test(ch)) return true;
  return false;
}

/** "U+0020 U+200B": the code points of a text that shows nothing, so the message says what is there. */
export function codePoints(text: string, max = 8): string {
  const all = [...text].map((ch) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`);
  return all.length > max ? `${all.slice(0, max).join(" ")} …` : all.join(" ");
}
