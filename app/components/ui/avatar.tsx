import * as React from "react";
import { ShieldAlert } from "lucide-react";
import { Link } from "react-router";

import { cn } from "~/lib/utils";

export const DEFAULT_AVATAR_SRC = "/images/default-avatar.svg";

export type AvatarSize = "sm" | "base" | "lg";
export type AvatarShape = "circle" | "square";

const sizeClasses: Record<AvatarSize, string> = {
  sm: "size-10 text-sm", // 40px
  base: "size-16 text-xl", // 64px
  lg: "size-32 text-4xl", // 128px
};

/** docs/product/interface.md#avatar: avatar sizes sm 40 px, base 64 px, lg 128 px. */
const SIZE_PX: Record<AvatarSize, number> = { sm: 40, base: 64, lg: 128 };

const squareRadius: Record<AvatarSize, string> = {
  sm: "rounded-md",
  base: "rounded-lg",
  lg: "rounded-2xl",
};

const overlayIconClasses: Record<AvatarSize, string> = {
  sm: "size-5",
  base: "size-7",
  lg: "size-12",
};

const overlayTextClasses: Record<AvatarSize, string> = {
  sm: "hidden",
  base: "text-[10px]",
  lg: "text-lg",
};

/** First two letters (or digits) of a username, upper-cased: "ivan_petrov" → "IV". */
export function getInitials(username: string): string {
  const chars = Array.from(username.trim());
  const alnum = chars.filter((c) => /[\p{L}\p{N}]/u.test(c));
  const picked = (alnum.length > 0 ? alnum : chars).slice(0, 2).join("");
  return picked ? picked.toLocaleUpperCase("ru-RU") : "?";
}

export type AvatarProps = {
  username: string;
  src?: string | null;
  size?: AvatarSize;
  shape?: AvatarShape;
  /** When set, the avatar becomes a link (e.g. to the user's profile). */
  link?: string;
  /** "scam" marks the user as a scammer with a red overlay. */
  overlay?: "scam";
  className?: string;
};

export function Avatar({ username, src, size = "base", shape = "circle", link, overlay, className }: AvatarProps) {
  const radius = shape === "circle" ? "rounded-full" : squareRadius[size];
  const [imageFailed, setImageFailed] = React.useState(false);

  const avatar = (
    <span
      data-slot="avatar"
      data-size={size}
      data-shape={shape}
      className={cn(
        "relative inline-flex shrink-0 overflow-hidden bg-muted align-middle select-none",
        sizeClasses[size],
        radius,
        overlay === "scam" && "ring-2 ring-destructive",
        !link && className,
      )}
      title={overlay === "scam" ? `${username} — мошенник` : undefined}
    >
      {/* The initials sit under the picture: they show only if the image fails to load. */}
      <span
        data-slot="avatar-fallback"
        className="absolute inset-0 flex items-center justify-center bg-secondary font-heading font-semibold text-secondary-foreground"
      >
        <span aria-hidden="true">{getInitials(username)}</span>
      </span>
      {imageFailed ? (
        <span className="sr-only">{username}</span>
      ) : (
        // A plain <img> renders on the server, so avatars show without JavaScript too.
        <img
          data-slot="avatar-image"
          src={src || DEFAULT_AVATAR_SRC}
          alt={username}
          loading="lazy"
          decoding="async"
          width={SIZE_PX[size]}
          height={SIZE_PX[size]}
          onError={() => setImageFailed(true)}
          className={cn("relative aspect-square size-full object-cover", overlay === "scam" && "grayscale")}
        />
      )}
      {overlay === "scam" ? (
        <span
          data-slot="avatar-overlay"
          className="absolute inset-0 flex flex-col items-center justify-center gap-0.5 bg-[hsl(var(--destructive)/0.6)] text-white"
        >
          <ShieldAlert aria-hidden="true" className={cn("drop-shadow", overlayIconClasses[size])} />
          <span aria-hidden="true" className={cn("-rotate-12 font-heading leading-none font-extrabold tracking-widest drop-shadow", overlayTextClasses[size])}>
            SCAM
          </span>
          <span className="sr-only">Мошенник</span>
        </span>
      ) : null}
    </span>
  );

  if (!link) return avatar;

  return (
    <Link
      to={link}
      aria-label="Профиль"
      className={cn(
        "inline-flex shrink-0 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background focus-visible:outline-none",
        radius,
        className,
      )}
    >
      {avatar}
    </Link>
  );
}
