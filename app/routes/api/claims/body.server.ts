/** The JSON body of the claim /api calls: an object, or ValidationFailed (`invalid_body`, 400) instead of a 500. */
import { ValidationFailed } from "~/lib/errors";

export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  let raw: unknown;
  try {
    raw = await request.json();
  } catch {
    throw new ValidationFailed("Тело запроса — JSON-объект", undefined, "invalid_body");
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new ValidationFailed("Тело запроса — JSON-объект", undefined, "invalid_body");
  return raw as Record<string, unknown>;
}
