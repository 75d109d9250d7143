/**
 * The words and links of a notification (docs/product/notifications.md#types-and-texts, docs/product/notifications.md#links). Pure functions
 * with no server imports: the server builds NotificationDto with them and the browser may use
 * them too (toasts of realtime frames).
 */
import { formatKopecks } from "~/domain/ledger/money";
import type { NotificationType } from "./types";

/** The description of every notification (docs/product/notifications.md#types-and-texts). */
export const NOTIFICATION_DESCRIPTION = "Нажмите, чтобы посмотреть";

/**
 * What follows the sender's name, per type (docs/product/notifications.md#types-and-texts, in Russian). `{name}` is the group's name;
 * the money and trust types of issue 10 (docs/product/notifications.md#money-and-trust) fill
 * `{deal}` and `{claim}` with the number and `{amount}` with roubles. Where the sender did not
 * act themselves (a hold released on time, a deal completed or cancelled) the text starts with a
 * dash: «Иван — сделка №12 завершена».
 */
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
  TRANSFER_RECEIVED: "перевёл(а) вам {amount}",
  HOLD_RELEASED: "— удержание снято: {amount} зачислены на ваш баланс",
  DEAL_OFFERED: "предложил(а) вам сделку №{deal}",
  DEAL_ACCEPTED: "принял(а) сделку №{deal}",
  DEAL_FUNDED: "оплатил(а) сделку №{deal}: деньги у гаранта",
  DEAL_DELIVERED: "отметил(а) сделку №{deal} выполненной — подтвердите получение",
  DEAL_COMPLETED: "— сделка №{deal} завершена",
  DEAL_CANCELLED: "— сделка №{deal} отменена",
  DEAL_DISPUTED: "открыл(а) спор по сделке №{deal}",
  DEAL_RESOLVED: "вынес(ла) решение по спору в сделке №{deal}",
  CLAIM_FILED: "подал(а) на вас претензию №{claim}",
  CLAIM_DECIDED: "вынес(ла) решение по претензии №{claim}",
  REPORT_HANDLED: "рассмотрел(а) вашу жалобу",
  SANCTION_APPLIED: "ограничил(а) вашу учётную запись",
  AD_APPROVED: "одобрил(а) вашу рекламу",
  AD_REJECTED: "отклонил(а) вашу рекламу",
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
export function notificationTitle(
  type: NotificationType,
  senderName: string,
  options: { actorCount?: number; conversationName?: string | null; dealId?: number | null; claimId?: number | null; amount?: number | null } = {},
): string {
  const actorCount = options.actorCount ?? 1;
  if (isGroupedType(type) && actorCount > 1) return `${senderName} и ещё ${actorCount - 1} ${GROUPED_TEXTS[type]}`;
  const text = NOTIFICATION_TEXTS[type]
    .replace("{name}", options.conversationName ?? "")
    .replace("{deal}", options.dealId != null ? String(options.dealId) : "")
    .replace("{claim}", options.claimId != null ? String(options.claimId) : "")
    .replace("{amount}", options.amount != null ? formatKopecks(options.amount) : "");
  return `${senderName} ${text}`.trim();
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
  /** The deal of DEAL_* types (issue 10). */
  dealId?: number | null;
  /** The claim of CLAIM_* types (issue 10). */
  claimId?: number | null;
  /** The member a REPORT_HANDLED is about when no item names a page (a profile, a wall). */
  subjectUserId?: number | null;
  /** The wall entry, or the message, of a REPORT_HANDLED. */
  wallPostId?: number | null;
  messageId?: number | null;
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
    case "TRANSFER_RECEIVED":
    case "HOLD_RELEASED":
      return "/profile/wallet";
    case "DEAL_OFFERED":
    case "DEAL_ACCEPTED":
    case "DEAL_FUNDED":
    case "DEAL_DELIVERED":
    case "DEAL_COMPLETED":
    case "DEAL_CANCELLED":
    case "DEAL_DISPUTED":
    case "DEAL_RESOLVED":
      return n.dealId ? `/services/guarantor/deals/${n.dealId}` : "/services/guarantor";
    case "CLAIM_FILED":
    case "CLAIM_DECIDED":
      return n.claimId ? `/claims/${n.claimId}` : "/claims";
    case "REPORT_HANDLED":
      // The item reported: a comment's anchor, the post, the conversations, or the profile (a wall entry's wall).
      if (n.comment) return `/post/${n.comment.postId}#comment-${n.comment.id}`;
      if (n.postId) return `/post/${n.postId}`;
      if (n.messageId) return "/profile/conversations";
      return n.subjectUserId ? `/profile/${n.subjectUserId}` : "/";
    case "SANCTION_APPLIED":
      return "/profile";
    case "AD_APPROVED":
    case "AD_REJECTED":
      return "/ads";
    default:
      return "/";
  }
}
