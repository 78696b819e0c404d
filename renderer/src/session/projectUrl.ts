// The open project in the URL (`?project=<id>`), so a reload opens it again; the route's parameters and the hash
// pass through.

export function setUrlProject(id: string | null): void {
  const url = new URL(location.href);
  if (id) url.searchParams.set("project", id);
  else url.searchParams.delete("project");
  history.replaceState(null, "", url.toString());
}
