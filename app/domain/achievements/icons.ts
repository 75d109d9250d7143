/**
 * The lucide icons an achievement may use, by lucide's kebab-case name. Shared by the
 * definitions (server) and the badge component (browser), which maps each name to its
 * component; the list already holds the icons of the money issue's achievements (deals,
 * deposit), so adding those is one definition and nothing here.
 */
export const ACHIEVEMENT_ICON_NAMES = [
  "pen-line",
  "files",
  "library-big",
  "heart",
  "flame",
  "cake",
  "badge-check",
  "handshake",
  "briefcase-business",
  "vault",
  "trophy",
  "medal",
  "award",
  "sparkles",
  "crown",
  "gem",
] as const;

export type AchievementIconName = (typeof ACHIEVEMENT_ICON_NAMES)[number];
