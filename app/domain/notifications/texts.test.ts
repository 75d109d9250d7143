import { describe, expect, it } from "vitest";
import { NOTIFICATION_TYPES } from "~/db/schema-chat";
import { formatKopecks } from "~/domain/ledger/money";
import { isGroupedType, NOTIFICATION_DESCRIPTION, notificationTitle, notificationUrl, type NotificationTarget } from "./texts";
import type { NotificationType } from "./types";

const base: Omit<NotificationTarget, "type"> = {
  senderId: 5,
  postId: null,
  comment: null,
  privateMessage: null,
  privatePersonalMessage: null,
  publicMessage: null,
};

describe("notification texts (docs/product/notifications.md#types-and-texts)", () => {
  it("puts the sender's name before the Russian text of each of the 14 types", () => {
    const titles = Object.fromEntries(NOTIFICATION_TYPES.slice(0, 14).map((type) => [type, notificationTitle(type, "Иван", { conversationName: "Трейдеры" })]));
    expect(titles).toEqual({
      POST_NEW: "Иван создал(а) новый пост",
      POST_NEW_VERIFIED: "Иван ✔ (верифицирован) создал(а) новый пост",
      POST_MENTION: "Иван упомянул(а) вас в посте",
      POST_LIKE: "Иван оценил(а) ваш пост",
      POST_COMMENT_NEW: "Иван оставил(а) комментарий под вашим постом",
      POST_COMMENT_REPLY: "Иван ответил(а) на ваш комментарий",
      POST_COMMENT_LIKE: "Иван оценил(а) ваш комментарий",
      POST_COMMENT_MENTION: "Иван упомянул(а) вас в комментарии",
      WALL_POST_NEW: "Иван создал(а) новую запись",
      WALL_POST_LIKE: "Иван оценил(а) вашу запись",
      WALL_POST_MENTION: "Иван упомянул(а) вас в записи",
      PRIVATE_CONVERSATION_MESSAGE_NEW: "Иван написал(а) сообщение в группе Трейдеры",
      PRIVATE_PERSONAL_CONVERSATION_MESSAGE_NEW: "Иван написал(а) вам сообщение",
      PUBLIC_CONVERSATION_MESSAGE_MENTION: "Иван упомянул(а) вас в сообщении",
    });
    expect(NOTIFICATION_DESCRIPTION).toBe("Нажмите, чтобы посмотреть");
  });

  it("words the money and trust types of issue 10 in the same style, with the deal, claim or amount", () => {
    const options = { dealId: 12, claimId: 7, amount: 150_050 };
    const titles = Object.fromEntries(NOTIFICATION_TYPES.slice(14).map((type) => [type, notificationTitle(type, "Иван", options)]));
    const amount = formatKopecks(150_050);
    expect(titles).toEqual({
      TRANSFER_RECEIVED: `Иван перевёл(а) вам ${amount}`,
      HOLD_RELEASED: `Иван — удержание снято: ${amount} зачислены на ваш баланс`,
      DEAL_OFFERED: "Иван предложил(а) вам сделку №12",
      DEAL_ACCEPTED: "Иван принял(а) сделку №12",
      DEAL_FUNDED: "Иван оплатил(а) сделку №12: деньги у гаранта",
      DEAL_DELIVERED: "Иван отметил(а) сделку №12 выполненной — подтвердите получение",
      DEAL_COMPLETED: "Иван — сделка №12 завершена",
      DEAL_CANCELLED: "Иван — сделка №12 отменена",
      DEAL_DISPUTED: "Иван открыл(а) спор по сделке №12",
      DEAL_RESOLVED: "Иван вынес(ла) решение по спору в сделке №12",
      CLAIM_FILED: "Иван подал(а) на вас претензию №7",
      CLAIM_DECIDED: "Иван вынес(ла) решение по претензии №7",
      REPORT_HANDLED: "Иван рассмотрел(а) вашу жалобу",
      SANCTION_APPLIED: "Иван ограничил(а) вашу учётную запись",
      AD_APPROVED: "Иван одобрил(а) вашу рекламу",
      AD_REJECTED: "Иван отклонил(а) вашу рекламу",
    });
    expect(amount).toBe("1\u00a0500,50\u00a0₽");
  });

  it("names the latest liker and counts the others, with a plural verb, for grouped likes", () => {
    expect(notificationTitle("POST_LIKE", "Иван", { actorCount: 4 })).toBe("Иван и ещё 3 оценили ваш пост");
    expect(notificationTitle("POST_COMMENT_LIKE", "Иван", { actorCount: 2 })).toBe("Иван и ещё 1 оценили ваш комментарий");
    expect(notificationTitle("WALL_POST_LIKE", "Иван", { actorCount: 11 })).toBe("Иван и ещё 10 оценили вашу запись");
    expect(notificationTitle("POST_LIKE", "Иван", { actorCount: 1 })).toBe("Иван оценил(а) ваш пост");
    // Only likes are grouped: a count on another type changes nothing.
    expect(notificationTitle("POST_NEW", "Иван", { actorCount: 3 })).toBe("Иван создал(а) новый пост");
    expect(NOTIFICATION_TYPES.filter(isGroupedType)).toEqual(["POST_LIKE", "POST_COMMENT_LIKE", "WALL_POST_LIKE"]);
  });
});

describe("notification links (docs/product/notifications.md#links)", () => {
  const url = (type: NotificationType, fields: Partial<NotificationTarget> = {}) => notificationUrl({ ...base, type, ...fields });

  it("sends post types to the post and comment types to the comment on it", () => {
    for (const type of ["POST_NEW", "POST_NEW_VERIFIED", "POST_MENTION", "POST_LIKE"] as const) {
      expect(url(type, { postId: 12 })).toBe("/post/12");
    }
    for (const type of ["POST_COMMENT_NEW", "POST_COMMENT_REPLY", "POST_COMMENT_LIKE", "POST_COMMENT_MENTION"] as const) {
      expect(url(type, { postId: 12, comment: { id: 40, postId: 12 } })).toBe("/post/12#comment-40");
    }
  });

  it("sends wall types to the sender's profile", () => {
    for (const type of ["WALL_POST_NEW", "WALL_POST_LIKE", "WALL_POST_MENTION"] as const) expect(url(type)).toBe("/profile/5");
  });

  it("sends message types to the conversation: ?group= for groups and the public one, ?personal= for personal ones", () => {
    expect(url("PRIVATE_CONVERSATION_MESSAGE_NEW", { privateMessage: { conversationId: 3 } })).toBe("/profile/conversations?group=3");
    expect(url("PRIVATE_PERSONAL_CONVERSATION_MESSAGE_NEW", { privatePersonalMessage: { conversationId: 4 } })).toBe("/profile/conversations?personal=4");
    expect(url("PUBLIC_CONVERSATION_MESSAGE_MENTION", { publicMessage: { conversationId: 1 } })).toBe("/profile/conversations?group=1");
  });

  it("sends money types to the wallet, deal types to the deal, claim types to the claim (issue 10)", () => {
    expect(url("TRANSFER_RECEIVED")).toBe("/profile/wallet");
    expect(url("HOLD_RELEASED")).toBe("/profile/wallet");
    for (const type of [
      "DEAL_OFFERED",
      "DEAL_ACCEPTED",
      "DEAL_FUNDED",
      "DEAL_DELIVERED",
      "DEAL_COMPLETED",
      "DEAL_CANCELLED",
      "DEAL_DISPUTED",
      "DEAL_RESOLVED",
    ] as const) {
      expect(url(type, { dealId: 12 })).toBe("/services/guarantor/deals/12");
      expect(url(type)).toBe("/services/guarantor");
    }
    expect(url("CLAIM_FILED", { claimId: 7 })).toBe("/claims/7");
    expect(url("CLAIM_DECIDED", { claimId: 7 })).toBe("/claims/7");
    expect(url("SANCTION_APPLIED")).toBe("/profile");
    expect(url("AD_APPROVED")).toBe("/ads");
    expect(url("AD_REJECTED")).toBe("/ads");
  });

  it("sends a handled report to what was reported: the comment, the post, the conversations or the profile", () => {
    expect(url("REPORT_HANDLED", { postId: 12, comment: { id: 40, postId: 12 } })).toBe("/post/12#comment-40");
    expect(url("REPORT_HANDLED", { postId: 12 })).toBe("/post/12");
    expect(url("REPORT_HANDLED", { messageId: 9 })).toBe("/profile/conversations");
    expect(url("REPORT_HANDLED", { subjectUserId: 31 })).toBe("/profile/31");
    expect(url("REPORT_HANDLED")).toBe("/");
  });

  it("falls back to / when the target is missing", () => {
    expect(url("POST_LIKE")).toBe("/");
    expect(url("POST_COMMENT_NEW")).toBe("/");
    expect(url("PRIVATE_CONVERSATION_MESSAGE_NEW")).toBe("/");
    expect(url("PRIVATE_PERSONAL_CONVERSATION_MESSAGE_NEW")).toBe("/");
    expect(url("PUBLIC_CONVERSATION_MESSAGE_MENTION")).toBe("/");
  });
});
