import { describe, expect, it } from "vitest";
import { NotificationActionSchema } from "./schemas";

describe("NotificationActionSchema", () => {
  it("accepts reading one notification by id and reading all", () => {
    expect(NotificationActionSchema.parse({ intent: "read", id: "12" })).toEqual({ intent: "read", id: 12 });
    expect(NotificationActionSchema.parse({ intent: "read-all" })).toEqual({ intent: "read-all" });
  });

  it("refuses bad ids and unknown intents with a Russian message", () => {
    for (const id of ["abc", "", "0", "-3", "1.5", "99999999999"]) {
      const result = NotificationActionSchema.safeParse({ intent: "read", id });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe("Неверный номер уведомления");
    }
    expect(NotificationActionSchema.safeParse({ intent: "delete" }).error?.issues[0]?.message).toBe("Неизвестное действие");
    expect(NotificationActionSchema.safeParse({}).error?.issues[0]?.message).toBe("Неизвестное действие");
  });
});
