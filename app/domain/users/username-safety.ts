/**
 * Usernames that cannot pass for someone else's (issue 13 item 10; Unicode TS #39): a name may
 * not mix Latin and Cyrillic letters («аdmin» with a Cyrillic а), and a new name may not look
 * like an existing one — the comparison is by their confusable skeletons (usernameSkeleton in
 * username-skeleton.server.ts, stored in `users.username_skeleton`, unique). Pure: the
 * registration form checks the script rule in the browser too.
 */

const LATIN = /[A-Za-z]/;
const CYRILLIC = /[А-Яа-яЁё]/;

/** True when `username` has both Latin and Cyrillic letters (digits and `_` belong to neither). */
export function isMixedScript(username: string): boolean {
  return LATIN.test(username) && CYRILLIC.test(username);
}

/** What a person reads when their username mixes scripts. */
export const MIXED_SCRIPT_MESSAGE = "Имя должно быть целиком латиницей или целиком кириллицей";
