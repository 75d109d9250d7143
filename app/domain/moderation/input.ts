/**
 * Checks of what moderators type (docs/product/moderation.md): reasons and periods. Pure, so
 * form schemas and the domain share the rules. Every refusal is a ValidationFailed with a
 * Russian message under its field and a stable code; nothing is written before these pass.
 */
import { ValidationFailed } from "~/lib/errors";
import { assertCleanText } from "~/lib/text";
import { REPORT_TARGET_TYPES } from "~/db/moderation-values";
import type { ReportTargetType } from "./types";

/** The longest reason, note or explanation a moderator may give (characters). */
export const REASON_MAX = 1000;
/** The furthest end of a sanction: 100 years from now ("for good" is no end at all). */
const PERIOD_MAX_MS = 100 * 365 * 24 * 3_600_000;

/**
 * `value` trimmed, or null when empty and not `required`. Throws ValidationFailed
 * `reason_required` («Укажите причину») for a required empty reason, `invalid_reason` for one
 * over REASON_MAX characters or not a string, `invalid_text` for NUL or a lone surrogate.
 */
export function parseReason(value: unknown, options: { required: boolean; field?: string }): string | null {
  const field = options.field ?? "reason";
  if (value === undefined || value === null) value = "";
  if (typeof value !== "string") throw new ValidationFailed("Причина должна быть текстом", { [field]: ["Причина должна быть текстом"] }, "invalid_reason");
  assertCleanText(field, value);
  const text = value.trim();
  if (text.length > REASON_MAX) {
    const message = `Причина — не длиннее ${REASON_MAX} символов`;
    throw new ValidationFailed(message, { [field]: [message] }, "invalid_reason");
  }
  if (text.length === 0) {
    if (options.required) throw new ValidationFailed("Укажите причину", { [field]: ["Укажите причину"] }, "reason_required");
    return null;
  }
  return text;
}

/**
 * The end of a sanction: null for good, else a moment after `now` and within 100 years.
 * Throws ValidationFailed `invalid_period` («Срок должен заканчиваться в будущем») otherwise.
 */
export function parseEndsAt(value: Date | null | undefined, now: Date): Date | null {
  if (value === null || value === undefined) return null;
  if (!(value instanceof Date) || Number.isNaN(value.getTime()) || value.getTime() <= now.getTime()) {
    throw new ValidationFailed("Срок должен заканчиваться в будущем", { endsAt: ["Срок должен заканчиваться в будущем"] }, "invalid_period");
  }
  if (value.getTime() - now.getTime() > PERIOD_MAX_MS) {
    throw new ValidationFailed("Слишком долгий срок: выберите «навсегда»", { endsAt: ["Слишком долгий срок: выберите «навсегда»"] }, "invalid_period");
  }
  return value;
}

/** The kind of item a report names; throws ValidationFailed (`invalid_target`) for anything else. */
export function checkTargetType(type: unknown): ReportTargetType {
  if (!(REPORT_TARGET_TYPES as readonly unknown[]).includes(type)) {
    throw new ValidationFailed("На это нельзя пожаловаться", { targetType: ["Неизвестный вид материала"] }, "invalid_target");
  }
  return type as ReportTargetType;
}
