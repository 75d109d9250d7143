import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import {
  ArchiveRestore,
  BadgeCheck,
  Bell,
  ChevronLeft,
  ChevronRight,
  ChevronsLeft,
  ChevronsRight,
  Bookmark,
  Check,
  CheckCheck,
  CornerDownRight,
  CornerUpLeft,
  Ellipsis,
  Eye,
  FileText,
  Flag,
  Heart,
  HeartCrack,
  House,
  LogIn,
  LogOut,
  MessageSquare,
  MessagesSquare,
  Monitor,
  Moon,
  Pencil,
  Pin,
  PinOff,
  Reply,
  Search,
  ShieldAlert,
  ShieldCheck,
  ShieldX,
  SquarePen,
  Sun,
  Trash2,
  TriangleAlert,
  User,
  type LucideIcon,
} from "lucide-react";
import { SPRITE_ICON_NAMES, type SpriteIconName } from "./icons";

/** The lucide component behind each of the sprite's names (app/lib/icons.ts). */
const ICONS: Record<SpriteIconName, LucideIcon> = {
  "archive-restore": ArchiveRestore,
  "badge-check": BadgeCheck,
  bell: Bell,
  "chevron-left": ChevronLeft,
  "chevron-right": ChevronRight,
  "chevrons-left": ChevronsLeft,
  "chevrons-right": ChevronsRight,
  bookmark: Bookmark,
  check: Check,
  "check-check": CheckCheck,
  "corner-down-right": CornerDownRight,
  "corner-up-left": CornerUpLeft,
  ellipsis: Ellipsis,
  eye: Eye,
  "file-text": FileText,
  flag: Flag,
  heart: Heart,
  "heart-crack": HeartCrack,
  house: House,
  "log-in": LogIn,
  "log-out": LogOut,
  "message-square": MessageSquare,
  "messages-square": MessagesSquare,
  monitor: Monitor,
  moon: Moon,
  pencil: Pencil,
  pin: Pin,
  "pin-off": PinOff,
  reply: Reply,
  search: Search,
  "shield-alert": ShieldAlert,
  "shield-check": ShieldCheck,
  "shield-x": ShieldX,
  "square-pen": SquarePen,
  sun: Sun,
  "trash-2": Trash2,
  "triangle-alert": TriangleAlert,
  user: User,
};

let sprite: string | null = null;

/**
 * The SVG sprite: one `<symbol id="{name}" viewBox="0 0 24 24">` per icon of SPRITE_ICON_NAMES,
 * holding lucide's own drawing (rendered once from lucide-react, then kept). Stroke and fill
 * are left to the `<svg class="icon">` that uses it, so an icon takes the colour of its text.
 */
export function iconSprite(): string {
  if (sprite !== null) return sprite;
  const symbols = SPRITE_ICON_NAMES.map((name) => {
    const markup = renderToStaticMarkup(createElement(ICONS[name]));
    const inner = /^<svg[^>]*>([\s\S]*)<\/svg>$/.exec(markup)?.[1];
    if (inner === undefined) throw new Error(`lucide icon ${name} did not render as one <svg>`);
    return `<symbol id="${name}" viewBox="0 0 24 24">${inner}</symbol>`;
  });
  sprite = `<svg xmlns="http://www.w3.org/2000/svg">${symbols.join("")}</svg>`;
  return sprite;
}
