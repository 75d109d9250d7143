import * as React from "react";
import { Link } from "~/components/ui/link";

import { optimizedImageUrl } from "~/lib/images/widths";
import { cn } from "~/lib/utils";
import { Icon } from "~/components/ui/icon";

export type AvatarSize = "sm" | "base" | "lg";
export type AvatarShape = "circle" | "square";

/** The size classes (app/styles/components.css): sm 40 px, base 64 px, lg 128 px. */
const sizeClasses: Record<AvatarSize, string> = {
  sm: "avatar-sm",
  base: "avatar-base",
  lg: "avatar-lg",
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
  /**
   * "notification": the picture is asked from the image endpoint as a 150×150 square, as the
   * notification list shows it (docs/product/interface.md#avatar).
   */
  picture?: "notification";
  className?: string;
};

export function Avatar({ username, src, size = "base", shape = "circle", link, overlay, picture, className }: AvatarProps) {
  // Round is the avatar's own shape (.avatar, .avatar-link): only a square one names its radius.
  const radius = shape === "circle" ? undefined : squareRadius[size];
  // An uploaded picture has a 10×10 placeholder, shown blurred by 3 px until the picture loads (docs/product/interface.md#images).
  const placeholder = src ? optimizedImageUrl(src, { variant: "placeholder" }) : null;
  const [imageFailed, setImageFailed] = React.useState(false);

  const avatar = (
    <span
      className={cn("avatar", sizeClasses[size], radius, !src && "avatar-default", overlay === "scam" && "ring-2 ring-destructive", !link && className)}
      title={overlay === "scam" ? `${username} — мошенник` : undefined}
      // The default picture is the box's background (app/styles/components.css): no <img> and no
      // initials under it, 200 bytes less for each of a page's 50 commenters (issue 12, page weight).
      {...(src ? {} : { role: "img", "aria-label": username })}
    >
      {src ? (
        <>
          {/* The initials sit under the picture: they show only if the image fails to load. */}
          <span className="avatar-fallback" aria-hidden="true">
            {getInitials(username)}
          </span>
          {placeholder && placeholder !== src && !imageFailed ? (
            <span
              aria-hidden="true"
              data-slot="avatar-placeholder"
              className="absolute inset-0 scale-110 bg-cover bg-center blur-[3px]"
              style={{ backgroundImage: `url("${placeholder}")` }}
            />
          ) : null}
          {imageFailed ? (
            <span className="sr-only">{username}</span>
          ) : (
            // A plain <img> renders on the server, so avatars show without JavaScript too.
            <img
              src={picture ? optimizedImageUrl(src, { variant: picture }) : src}
              alt={username}
              loading="lazy"
              decoding="async"
              width={SIZE_PX[size]}
              height={SIZE_PX[size]}
              onError={() => setImageFailed(true)}
              className={cn("avatar-image", overlay === "scam" && "grayscale")}
            />
          )}
        </>
      ) : null}
      {overlay === "scam" ? (
        <span
          data-slot="avatar-overlay"
          className="absolute inset-0 flex flex-col items-center justify-center gap-0.5 bg-[hsl(var(--destructive)/0.6)] text-white"
        >
          <Icon name="shield-alert" className={cn("drop-shadow", overlayIconClasses[size])} />
          <span aria-hidden="true" className={cn("-rotate-12 font-heading font-extrabold tracking-widest drop-shadow", overlayTextClasses[size])}>
            SCAM
          </span>
          <span className="sr-only">Мошенник</span>
        </span>
      ) : null}
    </span>
  );

  if (!link) return avatar;

  return (
    // Named by the avatar inside (the username), as the name beside it is.
    <Link to={link} className={cn("avatar-link", radius, className)}>
      {avatar}
    </Link>
  );
}
