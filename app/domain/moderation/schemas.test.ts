import { describe, expect, it } from "vitest";
import {
  AuditLogQuerySchema,
  ContentActionFormSchema,
  MemberListQuerySchema,
  ReportFormSchema,
  ResolveReportsFormSchema,
  SanctionFormSchema,
  sanctionEndsAt,
  StatsQuerySchema,
} from "./schemas";

const firstMessage = (result: { success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } }) =>
  result.success ? null : [result.error!.issues[0]!.path.join("."), result.error!.issues[0]!.message];

describe("moderation form schemas", () => {
  const now = new Date("2026-11-21T12:00:00Z");

  it("turns a sanction period into its end: hours ahead, a Moscow date and time, or none", () => {
    expect(sanctionEndsAt("1h", undefined, now)).toEqual(new Date("2026-11-21T13:00:00Z"));
    expect(sanctionEndsAt("7d", undefined, now)).toEqual(new Date("2026-11-28T12:00:00Z"));
    expect(sanctionEndsAt("until", "2026-12-01T18:30", now)).toEqual(new Date("2026-12-01T15:30:00Z"));
    expect(sanctionEndsAt("forever", "2026-12-01T18:30", now)).toBeNull();
    expect(Number.isNaN(sanctionEndsAt("until", "завтра", now)!.getTime())).toBe(true);
  });

  it("a queue decision to suspend or mute asks for the reason and the period; dismissing needs neither", () => {
    const card = { targetType: "post", targetId: "5" };
    expect(ResolveReportsFormSchema.safeParse({ ...card, outcome: "dismiss" }).success).toBe(true);
    expect(ResolveReportsFormSchema.safeParse({ ...card, outcome: "mute", period: "7d", reason: "Флуд" }).success).toBe(true);
    expect(firstMessage(ResolveReportsFormSchema.safeParse({ ...card, outcome: "suspend", period: "7d" }))).toEqual([
      "reason",
      "Укажите причину: её увидит участник",
    ]);
    expect(firstMessage(ResolveReportsFormSchema.safeParse({ ...card, outcome: "mute", reason: "Флуд" }))).toEqual(["period", "Выберите срок"]);
    expect(firstMessage(ResolveReportsFormSchema.safeParse({ ...card, outcome: "suspend", period: "until", reason: "Спам" }))).toEqual([
      "until",
      "Укажите дату и время окончания",
    ]);
  });

  it("asks for a reason, a known kind and a date for «до даты», in Russian", () => {
    expect(SanctionFormSchema.safeParse({ kind: "mute", period: "3d", reason: "Флуд" }).success).toBe(true);
    expect(firstMessage(SanctionFormSchema.safeParse({ kind: "mute", period: "3d", reason: "  " }))).toEqual(["reason", "Укажите причину"]);
    expect(firstMessage(SanctionFormSchema.safeParse({ kind: "mute", period: "3d" }))).toEqual(["reason", "Укажите причину"]);
    expect(firstMessage(SanctionFormSchema.safeParse({ kind: "mute", period: "3d", reason: "я".repeat(10_000) }))).toEqual([
      "reason",
      "Причина — не длиннее 1000 символов",
    ]);
    expect(firstMessage(SanctionFormSchema.safeParse({ kind: "ban", period: "3d", reason: "Спам" }))).toEqual([
      "kind",
      "Выберите блокировку или режим «только чтение»",
    ]);
    expect(firstMessage(SanctionFormSchema.safeParse({ kind: "suspend", period: "until", reason: "Спам" }))).toEqual([
      "until",
      "Укажите дату и время окончания",
    ]);
  });

  it("requires details for «другое» and a valid id in a report", () => {
    expect(ReportFormSchema.safeParse({ targetType: "post", targetId: "12", reason: "spam" }).data).toEqual({
      targetType: "post",
      targetId: 12,
      reason: "spam",
    });
    expect(firstMessage(ReportFormSchema.safeParse({ targetType: "post", targetId: "12", reason: "other" }))).toEqual(["details", "Опишите, что не так"]);
    expect(firstMessage(ReportFormSchema.safeParse({ targetType: "post", targetId: "-1", reason: "spam" }))).toEqual(["targetId", "Не найдено"]);
  });

  it("reads each content action by its intent", () => {
    expect(ContentActionFormSchema.parse({ intent: "move", id: "5", categoryId: "3" })).toEqual({ intent: "move", id: 5, categoryId: 3 });
    expect(ContentActionFormSchema.parse({ intent: "delete", type: "comment", id: "9", reason: "Спам" })).toEqual({
      intent: "delete",
      type: "comment",
      id: 9,
      reason: "Спам",
    });
    expect(ContentActionFormSchema.safeParse({ intent: "burn", id: "9" }).success).toBe(false);
  });

  it("reads list queries leniently: unknown values fall back, dates are Moscow days", () => {
    expect(MemberListQuerySchema.parse({ q: " vasya ", role: "owner", suspended: "1", muted: "0", scammer: "yes" })).toEqual({
      q: "vasya",
      role: undefined,
      suspended: true,
      muted: false,
      scammer: undefined,
    });
    expect(AuditLogQuerySchema.parse({ from: "2026-11-01", to: "2026-11-01", action: "nope" })).toEqual({
      actor: undefined,
      targetUser: undefined,
      action: undefined,
      from: new Date("2026-10-31T21:00:00Z"),
      to: new Date("2026-11-01T21:00:00Z"),
    });
    expect(firstMessage(AuditLogQuerySchema.safeParse({ from: "01.11.2026" }))).toEqual(["from", "Дата — в виде ГГГГ-ММ-ДД"]);
    expect(StatsQuerySchema.parse({ days: "30" })).toEqual({ days: 30 });
    expect(StatsQuerySchema.parse({ days: "14" })).toEqual({ days: 7 });
  });
});
