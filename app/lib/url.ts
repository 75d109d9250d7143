/** `path?…` with `key` set to `value` (removed when value is 1 for "page"), other params kept. */
export function withSearchParam(path: string, search: string, key: string, value: string | number): string {
  const params = new URLSearchParams(search);
  if (key === "page" && Number(value) === 1) params.delete(key);
  else params.set(key, String(value));
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}
