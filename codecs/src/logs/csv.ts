// CSV as loggers and spreadsheets write it (RFC 4180: quoted cells, "" for a quote, CRLF or LF), read
// row by row with the line each row starts on, so every problem can name the line a person opens.

export interface CsvRow {
  /** 1-based line of the file where the row starts (a quoted cell may span lines) */
  line: number;
  cells: string[];
}

export interface CsvText {
  /** the separator found in the header line: "," unless the header holds only ";" or tabs */
  separator: string;
  rows: CsvRow[];
  /** an unterminated quote: the line it opened on (the rest of the file is that cell) */
  unterminatedAt?: number;
}

/** The header's own separator: a European spreadsheet writes ";", a tab-separated export "\t". */
function separatorOf(text: string): string {
  const header = text.slice(0, text.search(/\r?\n|$/));
  if (header.includes(",")) return ",";
  if (header.includes(";")) return ";";
  if (header.includes("\t")) return "\t";
  return ",";
}

/** Splits the text into rows of cells. Blank lines are no rows; a byte-order mark is not part of the first cell. */
export function parseCsv(input: string): CsvText {
  const text = input.startsWith("\uFEFF") ? input.slice(1) : input;
  const separator = separatorOf(text);
  const rows: CsvRow[] = [];
  let line = 1;
  let i = 0;
  while (i < text.length) {
    const start = line;
    const cells: string[] = [];
    let cell = "";
    let quoted = false;
    let sawQuote = false;
    for (;;) {
      if (i >= text.length) {
        if (quoted) return { separator, rows, unterminatedAt: start };
        cells.push(cell);
        break;
      }
      const ch = text[i]!;
      if (quoted) {
        if (ch === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i += 2;
          } else {
            quoted = false;
            i++;
          }
          continue;
        }
        if (ch === "\n") line++;
        cell += ch;
        i++;
        continue;
      }
      if (ch === '"' && cell === "" && !sawQuote) {
        quoted = true;
        sawQuote = true;
        i++;
        continue;
      }
      if (ch === separator) {
        cells.push(cell);
        cell = "";
        sawQuote = false;
        i++;
        continue;
      }
      if (ch === "\n" || (ch === "\r" && text[i + 1] === "\n")) {
        cells.push(cell);
        i += ch === "\r" ? 2 : 1;
        line++;
        break;
      }
      cell += ch;
      i++;
    }
    if (!(cells.length === 1 && cells[0]!.trim() === "" && !sawQuote)) rows.push({ line: start, cells });
  }
  return { separator, rows };
}
