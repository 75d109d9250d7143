/**
 * Public shapes and Russian labels of moderation (issue 10; docs/product/moderation.md), shared
 * by the server, the /admin pages and /api bodies. Types and constants only.
 */
import type {
  AuditAction,
  AuditTargetType,
  ReportOutcome,
  ReportReason,
  ReportStatus,
  ReportTargetType,
  SanctionKind,
  StatsMetric,
} from "~/db/moderation-values";
import type { UserRole } from "~/domain/users/roles";
import type { UserRefDto } from "~/domain/users/users.server";

export type { AuditAction, AuditTargetType, ReportOutcome, ReportReason, ReportStatus, ReportTargetType, SanctionKind, StatsMetric, UserRole };

/** The ranks an admin grants and revokes (docs/product/moderation.md#roles). */
export const GRANTABLE_RANKS = ["ADMIN", "MODERATOR", "VERIFIED"] as const;
export type GrantableRank = (typeof GRANTABLE_RANKS)[number];

export const RANK_LABELS: Record<GrantableRank, string> = { ADMIN: "Администратор", MODERATOR: "Модератор", VERIFIED: "Верифицирован" };

export const SANCTION_LABELS: Record<SanctionKind, string> = { suspend: "Блокировка", mute: "Только чтение" };

export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  spam: "Спам",
  fraud: "Мошенничество",
  abuse: "Оскорбления",
  other: "Другое",
};

export const REPORT_TARGET_LABELS: Record<ReportTargetType, string> = {
  post: "Пост",
  comment: "Комментарий",
  wall_post: "Запись на стене",
  message: "Сообщение",
  profile: "Профиль",
};

export const REPORT_OUTCOME_LABELS: Record<ReportOutcome, string> = {
  dismiss: "Отклонена: нарушений нет",
  delete: "Удалено",
  suspend: "Автор заблокирован",
  mute: "Автор переведён в режим «только чтение»",
};

export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  "role.grant": "Выдал роль",
  "role.revoke": "Снял роль",
  "sanction.suspend": "Заблокировал",
  "sanction.mute": "Перевёл в «только чтение»",
  "sanction.lift": "Снял ограничение",
  "content.delete": "Удалил",
  "content.restore": "Восстановил",
  "content.hide": "Скрыто по жалобам",
  "post.close": "Закрыл комментарии",
  "post.open": "Открыл комментарии",
  "post.move": "Перенёс в другой раздел",
  "post.pin": "Закрепил на главной",
  "post.unpin": "Открепил",
  "report.resolve": "Рассмотрел жалобы",
  "settings.registration": "Изменил регистрацию",
  "settings.rules": "Изменил правила сайта",
  "settings.background": "Изменил фон главной",
  "claim.uphold": "Удовлетворил претензию",
  "claim.reject": "Отклонил претензию",
  "deal.resolve": "Разрешил спор по сделке",
  "money.topup": "Пополнил баланс",
  "ad.approve": "Одобрил рекламу",
  "ad.reject": "Отклонил рекламу",
  "ad_slot.create": "Добавил место для рекламы",
  "ad_slot.edit": "Изменил место для рекламы",
  "track.upload": "Загрузил трек",
  "track.edit": "Изменил трек",
  "track.move": "Переместил трек в плейлисте",
  "track.delete": "Удалил трек",
  "faq.create": "Добавил в FAQ",
  "faq.edit": "Изменил FAQ",
  "faq.publish": "Опубликовал в FAQ",
  "faq.unpublish": "Снял с публикации в FAQ",
  "faq.move": "Изменил порядок FAQ",
  "faq.delete": "Удалил из FAQ",
};

export const STATS_METRIC_LABELS: Record<StatsMetric, string> = {
  signups: "Регистрации",
  posts: "Посты",
  comments: "Комментарии",
  messages: "Сообщения",
  deals_created: "Сделки созданы",
  deals_completed: "Сделки завершены",
  transfer_volume: "Объём переводов, ₽",
  deal_volume: "Объём сделок, ₽",
};

/** Metrics in kopecks (shown in roubles); the others are counts. */
export const MONEY_METRICS: readonly StatsMetric[] = ["transfer_volume", "deal_volume"];

/** One sanction as moderators and the member page see it. Times are ISO strings. */
export interface SanctionDto {
  id: number;
  kind: SanctionKind;
  reason: string;
  startsAt: string;
  /** null: for good. */
  endsAt: string | null;
  createdBy: UserRefDto | null;
  liftedAt: string | null;
  liftedBy: UserRefDto | null;
  liftReason: string | null;
  /** In force at the time of the answer: not lifted and not ended. */
  active: boolean;
}

/** A member's sanctions in force now (null when none). */
export interface ActiveSanctions {
  suspension: SanctionDto | null;
  mute: SanctionDto | null;
}

/** One entry of the audit log. */
export interface AuditEntryDto {
  id: number;
  /** null: the site itself (the hide threshold). */
  actor: UserRefDto | null;
  action: AuditAction;
  /** Russian label of the action. */
  actionLabel: string;
  target: { type: AuditTargetType; id: number | null; url: string | null };
  targetUser: UserRefDto | null;
  reason: string | null;
  details: Record<string, unknown>;
  createdAt: string;
}

export interface AuditLogFilter {
  /** The acting member: id or username. */
  actor?: number | string;
  action?: AuditAction;
  /** The member concerned: id or username. */
  targetUser?: number | string;
  /** Entries at or after this moment. */
  from?: Date;
  /** Entries before this moment. */
  to?: Date;
}

/** A reported item in the queue: every open report of it grouped, with the count of reporters. */
export interface ReportGroupDto {
  targetType: ReportTargetType;
  targetId: number;
  /** Russian label of the kind of item. */
  targetLabel: string;
  /** Where the item is (the post, the comment's anchor, the wall, the conversation, the profile); null when it no longer exists. */
  url: string | null;
  /** The member reported (the author, or the profile). */
  targetUser: UserRefDto;
  /** That member's suspension and mute in force now (with their ends), null each when none. */
  targetUserSanctions: ActiveSanctions;
  /** What the item says now (plain text, ≤ 500 characters), or the newest report's snapshot when it is gone. */
  excerpt: string;
  /** The item's state now. */
  state: "visible" | "hidden" | "deleted" | "gone";
  reporterCount: number;
  /** Reasons with how many reporters gave each. */
  reasons: { reason: ReportReason; label: string; count: number }[];
  reports: ReportDto[];
  firstReportedAt: string;
  lastReportedAt: string;
}

export interface ReportDto {
  id: number;
  reporter: UserRefDto;
  reason: ReportReason;
  reasonLabel: string;
  details: string;
  status: ReportStatus;
  outcome: ReportOutcome | null;
  createdAt: string;
}

/** The counts of the /admin dashboard. */
export interface DashboardCounts {
  /** Items with open reports (queue entries). */
  openReportItems: number;
  /** Open reports in all. */
  openReports: number;
  openClaims: number;
  /** Deals in dispute awaiting a moderator. */
  openDisputes: number;
  /** Members registered since the start of today (Moscow). */
  newMembersToday: number;
}

/** One row of /admin/members. */
export interface MemberListItemDto {
  id: number;
  username: string;
  email: string;
  image: string | null;
  role: UserRole;
  ranks: UserRefDto["ranks"];
  createdAt: string;
  lastSeenAt: string | null;
  suspendedUntil: string | null;
  /** True while a suspension for good is in force. */
  suspendedForever: boolean;
  mutedUntil: string | null;
  mutedForever: boolean;
}

export interface MemberListFilter {
  /** Part of a username or email, case-insensitive. */
  q?: string;
  role?: UserRole;
  suspended?: boolean;
  muted?: boolean;
  scammer?: boolean;
}

/** One series of /admin/stats: a value per Moscow day, oldest first. */
export interface StatsSeries {
  metric: StatsMetric;
  label: string;
  /** "kopecks" for the volumes (shown in roubles), "count" otherwise. */
  unit: "count" | "kopecks";
  points: { day: string; value: number }[];
  total: number;
}

export interface DailyStatsDto {
  days: 7 | 30 | 90;
  /** The first and last day (YYYY-MM-DD, Moscow). */
  from: string;
  to: string;
  series: StatsSeries[];
}
