/** Reading server-rendered HTML in tests (the API client and the Playwright fixtures). */

/** Undoes React's attribute escaping. */
export function decodeHtml(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, entity: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#x27": "'", "#39": "'" })[entity]!);
}
