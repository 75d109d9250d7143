/**
 * The words and links of a notification (docs/product/notifications.md#types-and-texts, docs/product/notifications.md#links). Pure functions
 * with no server imports: the server builds NotificationDto with them and the browser may use
 * them too (toasts of realtime frames).
 */
import type { NotificationType } from "./types";

/** The description of every notification (docs/product/notifications.md#types-and-texts). */
export const NOTIFICATION_DESCRIPTION = "Нажмите, чтобы посмотреть";

/** What follows the sender's name, per type (docs/product/notifications.md#types-and-texts, in Russian). `{name}` is the group's name. */
export const NOTIFICATION_TEXTS: Readonly<Record<NotificationType, string>> = {
  POST_NEW: "создал(а) новый пост",
  POST_NEW_VERIFIED: "✔ (верифицирован) создал(а) новый пост",
  POST_MENTION: "упомянул(а) вас в посте",
  POST_LIKE: "оценил(а) ваш пост",
  POST_COMMENT_NEW: "оставил(а) комментарий под вашим постом",
  POST_COMMENT_REPLY: "ответил(а) на ваш комментарий",
  POST_COMMENT_LIKE: "оценил(а) ваш комментарий",
  POST_COMMENT_MENTION: "упомянул(а) вас в комментарии",
  WALL_POST_NEW: "создал(а) новую запись",
  WALL_POST_LIKE: "оценил(а) вашу запись",
  WALL_POST_MENTION: "упомянул(а) вас в записи",
  PRIVATE_CONVERSATION_MESSAGE_NEW: "написал(а) сообщение в группе {name}",
  PRIVATE_PERSONAL_CONVERSATION_MESSAGE_NEW: "написал(а) вам сообщение",
  PUBLIC_CONVERSATION_MESSAGE_MENTION: "упомянул(а) вас в сообщении",
};

/** The grouped (like) types and their plural text for several actors (docs/product/notifications.md#grouped-likes). */
export const GROUPED_TEXTS = {
  POST_LIKE: "оценили ваш пост",
  POST_COMMENT_LIKE: "оценили ваш комментарий",
  WALL_POST_LIKE: "оценили вашу запись",
} as const satisfies Partial<Record<NotificationType, string>>;

export type GroupedNotificationType = keyof typeof GROUPED_TEXTS;

/** True for the like types, which are grouped into one notification per liked item. */
export function isGroupedType(type: NotificationType): type is GroupedNotificationType {
  return Object.hasOwn(GROUPED_TEXTS, type);
}

/** Chat-message types: delivered live only and counted through the unread record (docs/product/notifications.md#chat-messages). */
export function isChatMessageType(type: NotificationType): boolean {
  return type === "PRIVATE_CONVERSATION_MESSAGE_NEW" || type === "PRIVATE_PERSONAL_CONVERSATION_MESSAGE_NEW";
}

/**
 * The title: the sender's name, then the text of the type — «Иван оставил(а) комментарий под
 * вашим постом»; a grouped like with several actors reads «Иван и ещё 3 оценили ваш пост».
 * `conversationName` fills «{name}» of group messages.
 */
export function notificationTitle(type: NotificationType, senderName: string, options: { actorCount?: number; conversationName?: string | null } = {}): string {
  const actorCount = options.actorCount ?? 1;
  if (isGroupedType(type) && actorCount > 1) return `${senderName} и ещё ${actorCount - 1} ${GROUPED_TEXTS[type]}`;
  return `${senderName} ${NOTIFICATION_TEXTS[type].replace("{name}", options.conversationName ?? "")}`.trim();
}

/** What a link needs to know of a notification: the fields of NotificationDto it reads. */
export interface NotificationTarget {
  type: NotificationType;
  senderId: number;
  postId: number | null;
  comment: { id: number; postId: number } | null;
  privateMessage: { conversationId: number } | null;
  privatePersonalMessage: { conversationId: number } | null;
  publicMessage: { conversationId: number } | null;
}

/**
 * Where a click on the notification goes (docs/product/notifications.md#links): the post (comment
 * types to the comment's anchor on it), the sender's profile for wall types, the conversation
 * (`?group=` for groups and the public one, `?personal=`), or / when the target is unknown.
 */
export function notificationUrl(n: NotificationTarget): string {
  switch (n.type) {
    case "POST_NEW":
    case "POST_NEW_VERIFIED":
    case "POST_MENTION":
    case "POST_LIKE":
      return n.postId ? `/post/${n.postId}` : "/";
    case "POST_COMMENT_NEW":
    case "POST_COMMENT_REPLY":
    case "POST_COMMENT_LIKE":
    case "POST_COMMENT_MENTION": {
      const postId = n.comment?.postId ?? n.postId;
      if (!postId) return "/";
      return n.comment ? `/post/${postId}#comment-${n.comment.id}` : `/post/${postId}`;
    }
    case "WALL_POST_NEW":
    case "WALL_POST_LIKE":
    case "WALL_POST_MENTION":
      return `/profile/${n.senderId}`;
    case "PRIVATE_CONVERSATION_MESSAGE_NEW":
      return n.privateMessage ? `/profile/conversations?group=${n.privateMessage.conversationId}` : "/";
    case "PRIVATE_PERSONAL_CONVERSATION_MESSAGE_NEW":
      return n.privatePersonalMessage ? `/profile/conversations?personal=${n.privatePersonalMessage.conversationId}` : "/";
    case "PUBLIC_CONVERSATION_MESSAGE_MENTION":
      return n.publicMessage ? `/profile/conversations?group=${n.publicMessage.conversationId}` : "/";
    default:
      return "/";
  }
}
