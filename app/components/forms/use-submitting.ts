import { useNavigation } from "react-router";

/**
 * True while a form of this page is being posted and its answer loaded (JavaScript only; without
 * it the browser shows its own progress): any POST when called without arguments, else only one
 * posted to `action` and/or carrying `intent`. Forms disable their buttons meanwhile so a second
 * click does not send the request again.
 */
export function useSubmitting(match: { action?: string; intent?: string } = {}): boolean {
  const navigation = useNavigation();
  if (navigation.state === "idle" || !navigation.formData) return false;
  if (match.action !== undefined && navigation.formAction !== match.action) return false;
  if (match.intent !== undefined && navigation.formData.get("intent") !== match.intent) return false;
  return true;
}
