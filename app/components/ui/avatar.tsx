import * as React from "react";
import * as AvatarPrimitive from "@radix-ui/react-avatar";
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

export function Avatar({
  username,
  src,
  size = "base",
  shape = "circle",
  link,
  overlay,
  className,
}: AvatarProps) {
  const radius = shape === "circle" ? "rounded-full" : squareRadius[size];

  const avatar = (
    <AvatarPrimitive.Root
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
      <AvatarPrimitive.Image
        data-slot="avatar-image"
        src={src || DEFAULT_AVATAR_SRC}
        alt={username}
        className={cn("aspect-square size-full object-cover", overlay === "scam" && "grayscale")}
      />
      <AvatarPrimitive.Fallback
        data-slot="avatar-fallback"
        className={cn(
          "flex size-full items-center justify-center bg-secondary font-heading font-semibold text-secondary-foreground",
        )}
      >
        <span aria-hidden="true">{getInitials(username)}</span>
        <span className="sr-only">{username}</span>
      </AvatarPrimitive.Fallback>
      {overlay === "scam" ? (
        <span
          data-slot="avatar-overlay"
          className="absolute inset-0 flex flex-col items-center justify-center gap-0.5 bg-[hsl(var(--destructive)/0.6)] text-white"
        >
          <ShieldAlert aria-hidden="true" className={cn("drop-shadow", overlayIconClasses[size])} />
          <span
            aria-hidden="true"
            className={cn(
              "-rotate-12 font-heading leading-none font-extrabold tracking-widest drop-shadow",
              overlayTextClasses[size],
            )}
          >
            SCAM
          </span>
          <span className="sr-only">Мошенник</span>
        </span>
      ) : null}
    </AvatarPrimitive.Root>
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
