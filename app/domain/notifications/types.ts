/**
 * The public shape of a notification (docs/product/notifications.md#calls, docs/product/notifications.md#types-and-texts), shared by
 * /api/profile/notifications, the `notifications` realtime channel and the browser. Types only.
 */
import type { NotificationType } from "~/db/schema-chat";
import type { UserRefDto } from "~/domain/users/users.server";

export type { NotificationType };

/**
 * What a notification is about, named for the reader (docs/product/notifications.md#targets):
 * the post by its title, a comment, wall entry or message by the start of its text.
 */
export interface NotificationTargetDto {
  kind: "post" | "comment" | "wall_post" | "message";
  /**
   * The post's title, or the excerpt of the comment, wall entry or message (one line, at most
   * TARGET_EXCERPT_LENGTH code points, «…» when cut); null when the item is deleted or hidden.
   */
  text: string | null;
  /** For a comment: the title of its post (null when that post is deleted or hidden). */
  postTitle: string | null;
}

export interface NotificationDto {
  /** null for chat-message notifications, which are delivered live and not stored. */
  id: number | null;
  type: NotificationType;
  senderId: number;
  sender: { name: string; avatar: string | null; ranks: UserRefDto["ranks"] };
  postId: number | null;
  comment: { id: number; postId: number } | null;
  /** Group conversation messages. */
  privateMessage: { conversationId: number; conversation: { name: string } } | null;
  /** Personal conversation messages. */
  privatePersonalMessage: { conversationId: number } | null;
  /** A mention in the public conversation (added in issue 4: the link needs the conversation). */
  publicMessage: { conversationId: number; messageId: number } | null;
  /** The wall entry of WALL_POST_* types (added in issue 4). */
  wallPostId: number | null;
  /** The guarantor deal of DEAL_* types (issue 10; link /services/guarantor/deals/{id}). */
  dealId: number | null;
  /** The claim of CLAIM_* types (issue 10; link /claims/{id}). */
  claimId: number | null;
  /** Kopecks of TRANSFER_RECEIVED and HOLD_RELEASED (issue 10). */
  amount: number | null;
  /** The member a REPORT_HANDLED is about (a reported profile or wall), issue 10. */
  subjectUserId: number | null;
  /** The post, comment, wall entry or message it is about; null for the other types (money, deals, claims). */
  target: NotificationTargetDto | null;
  /** «Иван создал новый пост», «Иван и ещё 3 оценили ваш пост» (sender name first). */
  title: string;
  /** Always «Нажмите, чтобы посмотреть» (docs/product/notifications.md#types-and-texts). */
  description: string;
  /** Where a click goes (docs/product/notifications.md#links): the post, the sender's profile, the conversation, or /. */
  url: string;
  /** Distinct actors of a grouped (like) notification; 1 otherwise. */
  actorCount: number;
  read: boolean;
  /**
   * Live frames only (docs/product/notifications.md#unread-counting): false when the frame updates a notification that was unread
   * already (a grouped like gaining a liker), so the browser's count must not rise again; true
   * for a new notification or one unread again. Absent from stored lists; absent counts as true.
   */
  raisesUnread?: boolean;
  createdAt: string;
  updatedAt: string;
}
