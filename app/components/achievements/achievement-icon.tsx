import {
  Award,
  BadgeCheck,
  BriefcaseBusiness,
  Cake,
  Crown,
  Files,
  Flame,
  Gem,
  Handshake,
  Heart,
  LibraryBig,
  Medal,
  PenLine,
  Sparkles,
  Trophy,
  Vault,
  type LucideIcon,
} from "lucide-react";
import type { AchievementIconName } from "~/domain/achievements/icons";

/** Every icon an achievement may name (app/domain/achievements/icons.ts), imported one by one. */
const ICONS: Record<AchievementIconName, LucideIcon> = {
  "pen-line": PenLine,
  files: Files,
  "library-big": LibraryBig,
  heart: Heart,
  flame: Flame,
  cake: Cake,
  "badge-check": BadgeCheck,
  handshake: Handshake,
  "briefcase-business": BriefcaseBusiness,
  vault: Vault,
  trophy: Trophy,
  medal: Medal,
  award: Award,
  sparkles: Sparkles,
  crown: Crown,
  gem: Gem,
};

/** An achievement's lucide icon, decorative (the title beside it names the badge); `className` sizes it (size-5 when not given). */
export function AchievementIcon({ name, className = "size-5" }: { name: AchievementIconName; className?: string }) {
  const Icon = ICONS[name] ?? Award;
  return <Icon aria-hidden className={className} />;
}
