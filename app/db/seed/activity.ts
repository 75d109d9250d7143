/**
 * The demo community's activity (issue 3): comments and replies, likes, wall entries,
 * follows and the demo member's bookmarks — so the site a newcomer opens looks lived in.
 * Deterministic: the same rows on every run. Pure data; seed.server.ts inserts it.
 */
import { Rng } from "./prng";

/** Top-level comments of the demo; the bench data set's list (bench/data/texts.ts) begins with them. */
export const COMMENTS = [
  "Спасибо, полезно! Сохранил в закладки.",
  "Актуально ещё? Написал в личку.",
  "Цена адекватная, если всё как в описании.",
  "Проводил сделку с автором через гаранта — всё чётко, рекомендую.",
  "А скрины можно? Без них пока сомневаюсь.",
  "Плюсую, сам так делаю уже год.",
  "Не согласен: у меня опыт ровно противоположный.",
  "Добавлю: всегда проверяйте депозит продавца перед сделкой.",
  "Интересно, а как с этим у новичков?",
  "Торг уместен? Готов забрать сегодня.",
  "Подписался на автора, жду продолжения.",
  "Хороший разбор, но не хватает примеров.",
  "У меня такая же ситуация была месяц назад, решилось через поддержку.",
  "Лучше через гаранта, комиссия того стоит.",
  "Вот это новость, не ожидал.",
  "Есть ссылка на первоисточник?",
  "Взял бы, но пока без денег до зарплаты.",
  "Автору респект, редко такое пишут подробно.",
  "Кто-нибудь уже пробовал? Поделитесь впечатлениями.",
  "Спорная тема, но аргументы понятны.",
];

/** Replies of the demo; the bench data set's list begins with them. */
export const REPLIES = [
  "Да, всё ещё актуально, пишите.",
  "Согласен, спасибо за дополнение!",
  "Скрины отправил в личку.",
  "Можно и так, дело вкуса.",
  "Проверено лично, всё работает.",
  "Спасибо за отзыв!",
  "Не совсем так, но мысль понял.",
  "Ссылку добавил в пост.",
];

/** Wall entries of the demo; the bench data set's list begins with them. */
export const WALL = [
  "Спасибо за быструю сделку! Всё пришло, как договаривались.",
  "Рад знакомству на форуме, обращайся, если что.",
  "Отличный продавец, рекомендую всем.",
  "С днём рождения! Удачных сделок и поменьше скамеров.",
  "Заходи в обсуждение, нужен твой совет по видеокартам.",
  "Второй раз беру у тебя — как всегда, без вопросов.",
  "Спасибо за гайд, очень помог.",
  "Жду продолжения обзоров!",
];

export interface SeedActivityInput {
  memberIds: number[];
  posts: { id: number; authorId: number; createdAt: Date }[];
  demoId: number;
  now: number;
}

export interface SeedComment {
  key: number;
  postId: number;
  authorId: number;
  /** `key` of the comment replied to. */
  parentKey: number | null;
  body: string;
  createdAt: Date;
}

export interface SeedActivity {
  comments: SeedComment[];
  postLikes: { postId: number; userId: number; receiverId: number; createdAt: Date }[];
  /** Likes on comments, by the comment's key. */
  commentLikes: { commentKey: number; userId: number; createdAt: Date }[];
  wallPosts: { ownerId: number; authorId: number; body: string; createdAt: Date; pinned: boolean }[];
  follows: { followerId: number; followeeId: number; createdAt: Date }[];
  bookmarks: { userId: number; postId: number; createdAt: Date }[];
}

const between = (rng: Rng, from: number, to: number) => new Date(from + rng.next() * Math.max(0, to - from));

/** Builds the activity rows for the seeded members and posts. */
export function buildSeedActivity({ memberIds, posts, demoId, now }: SeedActivityInput): SeedActivity {
  const rng = new Rng(20_261_121);
  const others = (exclude: number) => memberIds.filter((id) => id !== exclude);
  const activity: SeedActivity = { comments: [], postLikes: [], commentLikes: [], wallPosts: [], follows: [], bookmarks: [] };

  for (const post of posts) {
    const start = post.createdAt.getTime();
    for (const userId of rng.shuffle(others(post.authorId)).slice(0, rng.int(0, 14))) {
      activity.postLikes.push({ postId: post.id, userId, receiverId: post.authorId, createdAt: between(rng, start, now) });
    }
    const thread: SeedComment[] = [];
    for (let i = rng.int(0, 5); i > 0; i--) {
      const parent = thread.length > 0 && rng.chance(0.35) ? rng.pick(thread) : null;
      const authorId = parent && rng.chance(0.6) ? post.authorId : rng.pick(others(parent?.authorId ?? post.authorId));
      const comment: SeedComment = {
        key: activity.comments.length + 1,
        postId: post.id,
        authorId,
        parentKey: parent?.key ?? null,
        body: rng.pick(parent ? REPLIES : COMMENTS),
        createdAt: between(rng, Math.max(start, parent?.createdAt.getTime() ?? start), now),
      };
      thread.push(comment);
      activity.comments.push(comment);
      for (const userId of rng.shuffle(others(authorId)).slice(0, rng.int(0, 3))) {
        activity.commentLikes.push({ commentKey: comment.key, userId, createdAt: between(rng, comment.createdAt.getTime(), now) });
      }
    }
  }

  for (const ownerId of memberIds) {
    const count = rng.int(0, 3);
    for (let i = 0; i < count; i++) {
      activity.wallPosts.push({
        ownerId,
        authorId: rng.pick(others(ownerId)),
        body: rng.pick(WALL),
        createdAt: between(rng, now - 120 * 86_400_000, now),
        pinned: i === 0 && rng.chance(0.3),
      });
    }
    for (const followeeId of rng.shuffle(others(ownerId)).slice(0, rng.int(2, 8))) {
      activity.follows.push({ followerId: ownerId, followeeId, createdAt: between(rng, now - 300 * 86_400_000, now) });
    }
  }

  for (const post of rng.shuffle(posts.filter((p) => p.authorId !== demoId)).slice(0, 6)) {
    activity.bookmarks.push({ userId: demoId, postId: post.id, createdAt: between(rng, post.createdAt.getTime(), now) });
  }
  return activity;
}
