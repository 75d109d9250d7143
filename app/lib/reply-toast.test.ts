import { describe, expect, it } from "vitest";
import { failureText, isSuccessReply } from "./reply-toast";

describe("the failure toast's text (docs/product/routes.md#reply-envelope)", () => {
  it("shows the errors' message first", () => {
    expect(failureText("/api/x", { success: false, errors: { code: "not_found", message: "Пост не найден" } })).toBe("Пост не найден");
  });

  it("else the first value of the errors object, a field's list included", () => {
    expect(failureText("/api/x", { success: false, errors: { amount: "Сумма слишком мала", to: "Кому?" } })).toBe("Сумма слишком мала");
    expect(failureText("/api/x", { success: false, errors: { amount: ["Введите сумму"] } })).toBe("Введите сумму");
  });

  it("else «Не удалось получить информацию от {path}», for no body, garbage or empty errors", () => {
    for (const body of [null, "<html>", { success: false }, { success: false, errors: {} }, { errors: { message: " " } }, [1, 2]]) {
      expect(failureText("/api/profile/payments/transfer", body)).toBe("Не удалось получить информацию от /api/profile/payments/transfer");
    }
  });

  it("counts the envelope's success and the Auth.js-style ok as success, nothing else", () => {
    expect(isSuccessReply({ success: true, data: 1 })).toBe(true);
    expect(isSuccessReply({ ok: true, user: {} })).toBe(true);
    expect(isSuccessReply({ success: false })).toBe(false);
    expect(isSuccessReply("true")).toBe(false);
  });
});
