import { describe, expect, it } from "vitest";
import { Client, csrfFromHtml, decodeHtml } from "./client";

interface Row {
  memberId: number;
  score: number;
}

/** The ranked rows of a /leaderboard page, in page order. */
function rowsOf(html: string): Row[] {
  return html
    .split('data-testid="leaderboard-row"')
    .slice(1)
    .map((chunk) => ({
      memberId: Number(/href="\/profile\/(\d+)"/.exec(chunk)?.[1]),
      score: Number(/data-score="(\d+)"/.exec(chunk)?.[1]),
    }));
}

/** The labels of the leaderboard's links marked as the current tab, in page order. */
function currentTabs(html: string): string[] {
  const tabs = html.slice(html.indexOf('aria-label="Рейтинг"'), html.indexOf('data-testid="leaderboard"'));
  return [...tabs.matchAll(/<a[^>]*aria-current="page"[^>]*>([^<]+)<\/a>/g)].map((m) => decodeHtml(m[1]!));
}

const METRICS = [
  { by: "reputation", metricLabel: "Репутация" },
  { by: "posts", metricLabel: "Публикации" },
  { by: "deals", metricLabel: "Сделки" },
];
const PERIODS = [
  { period: "week", periodLabel: "За неделю" },
  { period: "month", periodLabel: "За месяц" },
  { period: "all", periodLabel: "За всё время" },
];
const CASES = METRICS.flatMap((m) => PERIODS.map((p) => ({ ...m, ...p })));

describe("/leaderboard (issue 3)", () => {
  it.each(CASES)(
    "by=$by&period=$period answers 200 with its tabs current and members ranked by the figure",
    async ({ by, period, metricLabel, periodLabel }) => {
      const response = await new Client().fetch(`/leaderboard?by=${by}&period=${period}`);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain("<title>Лидеры | Сходка</title>");
      expect(currentTabs(html)).toEqual([metricLabel, periodLabel]);
      const rows = rowsOf(html);
      // The demo community has posts and likes in every period, so no table may be empty.
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.length).toBeLessThanOrEqual(50);
      for (const row of rows) {
        expect(row.memberId).toBeGreaterThan(0);
        expect(row.score).toBeGreaterThan(0);
      }
      const scores = rows.map((r) => r.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      expect(new Set(rows.map((r) => r.memberId)).size).toBe(rows.length);
    },
  );

  it("ranks the demo community by posts of all time, each figure the member's post count", async () => {
    const client = new Client();
    const rows = rowsOf(await (await client.fetch("/leaderboard?by=posts&period=all")).text());
    expect(rows.length).toBeGreaterThan(5);
    for (const row of rows.slice(0, 5)) {
      const profile = await (await client.fetch(`/api/profile/${row.memberId}`)).json();
      expect(profile.data.postCount).toBe(row.score);
    }
    // Week and month are windows of all time: nobody has more there than overall.
    const allTime = new Map(rows.map((r) => [r.memberId, r.score]));
    for (const period of ["week", "month"]) {
      const windowed = rowsOf(await (await client.fetch(`/leaderboard?by=posts&period=${period}`)).text());
      for (const row of windowed) if (allTime.has(row.memberId)) expect(row.score).toBeLessThanOrEqual(allTime.get(row.memberId)!);
    }
  });

  it("ranks a member whose post got three likes this week above one whose post got one", async () => {
    const publish = async () => {
      const author = new Client();
      await author.register();
      const id = (await (await author.fetch("/api/auth/me")).json()).user.id as number;
      const page = await (await author.fetch("/posts/new")).text();
      const created = await author.postForm("/posts/new", {
        csrf: csrfFromHtml(page),
        title: "Пост для рейтинга",
        body: "Текст",
        categoryId: "7",
        kind: "post",
      });
      expect(created.status).toBe(302);
      return { id, postId: created.headers.get("Location")!.split("/").pop()! };
    };
    const like = async (postId: string) => {
      const fan = new Client();
      await fan.register();
      const csrf = csrfFromHtml(await (await fan.fetch("/")).text());
      const response = await fan.postForm("/likes", { csrf, target: "post", id: postId, liked: "true", redirectTo: "/" });
      expect(response.status).toBe(302);
    };
    const [popular, modest] = [await publish(), await publish()];
    for (let i = 0; i < 3; i++) await like(popular.postId);
    await like(modest.postId);

    for (const period of ["week", "month", "all"]) {
      const rows = rowsOf(await (await new Client().fetch(`/leaderboard?by=reputation&period=${period}`)).text());
      const popularRow = rows.findIndex((r) => r.memberId === popular.id);
      const modestRow = rows.findIndex((r) => r.memberId === modest.id);
      expect(popularRow).toBeGreaterThanOrEqual(0);
      expect(rows[popularRow]!.score).toBe(3);
      expect(modestRow).toBeGreaterThan(popularRow);
      expect(rows[modestRow]!.score).toBe(1);
    }
  });

  it("falls back to reputation of all time for unknown values instead of failing", async () => {
    const response = await new Client().fetch("/leaderboard?by=money&period=decade");
    expect(response.status).toBe(200);
    expect(currentTabs(await response.text())).toEqual(["Репутация", "За всё время"]);
  });
});
