// Maps parseLayout's path-precise issues ("fields[3].type.fields[0].key") onto the field they concern.
import type { Field, IssueAt } from "#codecs";

export interface FieldIssue {
  /** path inside the field: "key", "type.max", "type.values[1].name", "" for the field itself */
  at: string;
  message: string;
}

export interface IssueIndex {
  byField: Map<string, FieldIssue[]>;
  /** issues of the layout itself (name, package, protobufReserved …) */
  layout: IssueAt[];
}

const FIELD_STEP = /^fields\[(\d+)\](?:\.|$)/;

interface Resolved {
  field: Field;
  /** what is left inside the field */
  rest: string;
}

function resolve(fields: readonly Field[], path: string): Resolved | undefined {
  let rest = path;
  let list: readonly Field[] = fields;
  let found: Resolved | undefined;
  for (;;) {
    const m = FIELD_STEP.exec(rest);
    const f = m ? list[Number(m[1])] : undefined;
    if (!m || !f) break;
    rest = rest.slice(m[0].length);
    found = { field: f, rest };
    if (f.type.kind === "group" && rest.startsWith("type.fields[")) {
      rest = rest.slice("type.".length);
      list = f.type.fields;
    } else break;
  }
  return found;
}

export function indexIssues(fields: readonly Field[], issues: readonly IssueAt[]): IssueIndex {
  const byField = new Map<string, FieldIssue[]>();
  const layout: IssueAt[] = [];
  const add = (id: string, issue: FieldIssue) => {
    let arr = byField.get(id);
    if (!arr) byField.set(id, (arr = []));
    arr.push(issue);
  };
  for (const issue of issues) {
    const owner = resolve(fields, issue.path);
    if (!owner) {
      layout.push(issue);
      continue;
    }
    add(owner.field.id, { at: owner.rest, message: issue.message });
    // parseLayout reports a clash (key, id, number) on the second field and names both: the first one
    // shows the same sentence, so editing either field shows the problem
    const other = issue.related ? resolve(fields, issue.related) : undefined;
    if (other && other.rest === "" && other.field.id !== owner.field.id)
      add(other.field.id, { at: owner.rest, message: issue.message });
  }
  return { byField, layout };
}

/** Issues for one form control: exact path, or anything below it ("type.values" also shows "type.values[2].name"). */
export function issuesAt(list: readonly FieldIssue[] | undefined, at: string, { below = false } = {}): FieldIssue[] {
  if (!list) return [];
  return list.filter((i) => i.at === at || (below && (i.at.startsWith(`${at}.`) || i.at.startsWith(`${at}[`))));
}
