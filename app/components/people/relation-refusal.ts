/** A refused follow or block change, as a fetcher or the route's ErrorBoundary receives it. */
export interface RelationRefusal {
  ok: false;
  message: string;
  code: string;
  back: string;
}

/** The reason to show in the ErrorBoundary of a relation route, whatever was thrown. */
export function refusalOf(errorData: unknown): { message: string; back: string | null } {
  if (typeof errorData === "object" && errorData !== null) {
    const refusal = errorData as RelationRefusal;
    return { message: refusal.message, back: refusal.back };
  }
  return { message: typeof errorData === "string" ? errorData : "Что-то пошло не так. Попробуйте ещё раз.", back: null };
}
