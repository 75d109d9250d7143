/**
 * The demo community's conversations (issue 4): two groups the demo member is in (one they
 * own), personal conversations between demo members — some with messages the demo member has
 * not read yet — and a lively public conversation with a mention of the demo member.
 * Deterministic and fast: a handful of multi-row inserts inside the seed's transaction.
 */
import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { conversationMembers, conversations, messages } from "~/db/schema";

const MINUTE_MS = 60 * 1000;

/** A line of a demo conversation: author's username and text; `unread` lines stay unread for the demo member. */
type Line = [author: string, body: string, options?: { replyTo?: number; unread?: boolean }];

interface SeedConversation {
  kind: "group" | "personal" | "public";
  name?: string;
  owner?: string;
  /** Members in joining order (the owner first); two for a personal conversation. */
  members: string[];
  /** Minutes before now the first line was written; lines follow a few minutes apart. */
  startedMinutesAgo: number;
  lines: Line[];
}

const CONVERSATIONS: SeedConversation[] = [
  {
    kind: "public",
    members: [],
    startedMinutesAgo: 180,
    lines: [
      ["dark_knight77", "Всем привет! Кто сегодня онлайн?"],
      ["Marina_Trade", "Я тут. Ищу гаранта на сделку с аккаунтом Steam, кто свободен?"],
      ["Kotofey", "Пиши в сервис гаранта, там быстро отвечают", { replyTo: 1 }],
      ["cryptoVasya", "TON опять растёт, кто успел закупиться?"],
      ["ton_hunter", "Я брал по 5, держу дальше 🚀"],
      ["steam_seller", "@demo глянь мой новый пост про скины, интересно твоё мнение"],
      ["Lisa_gamer", "Кто играет в Genshin? Ищу пати на вечер"],
      ["genshin_luna", "Я! Добавляйся, ник в профиле", { replyTo: 6 }],
      ["hardware_guru", "Напоминаю: перед сделкой проверяйте депозит продавца."],
      ["news_hunter", "Свежие новости рынка выложил в разделе «Новости»."],
    ],
  },
  {
    kind: "group",
    name: "Торговля аккаунтами",
    owner: "demo",
    members: ["demo", "steam_seller", "Marina_Trade", "Serega_CS", "dotaholic"],
    startedMinutesAgo: 600,
    lines: [
      ["demo", "Создал беседу, чтобы обсуждать сделки без флуда в общем чате."],
      ["steam_seller", "Отлично! Есть аккаунт CS2 с прайм-статусом, кому интересно?"],
      ["Serega_CS", "Сколько часов наиграно?", { replyTo: 1 }],
      ["steam_seller", "Около 1200, инвентарь на 40к", { unread: true }],
      ["Marina_Trade", "Через гаранта готова взять, если цена адекватная", { unread: true }],
      ["dotaholic", "А Dota 2 аккаунты кто-нибудь продаёт?", { unread: true }],
    ],
  },
  {
    kind: "group",
    name: "Крипта и DeFi",
    owner: "defi_dasha",
    members: ["defi_dasha", "cryptoVasya", "demo", "eth_vitya", "bitok_ded", "Grisha_Mining"],
    startedMinutesAgo: 1500,
    lines: [
      ["defi_dasha", "Делимся идеями по стейкингу и пулам ликвидности."],
      ["eth_vitya", "Кто пробовал рестейкинг? Риски понятны, доходность не очень."],
      ["bitok_ded", "Я по старинке: холодный кошелёк и терпение."],
      ["demo", "Согласен с @bitok_ded, надёжность важнее процентов."],
      ["Grisha_Mining", "Майнинг сейчас едва окупается, электричество дорожает."],
    ],
  },
  {
    kind: "personal",
    members: ["demo", "Marina_Trade"],
    startedMinutesAgo: 90,
    lines: [
      ["Marina_Trade", "Привет! Аккаунт из твоего поста ещё актуален?"],
      ["demo", "Привет! Да, актуален."],
      ["Marina_Trade", "Отлично, давай через гаранта?", { unread: true }],
      ["Marina_Trade", "Могу сегодня вечером", { unread: true }],
    ],
  },
  {
    kind: "personal",
    members: ["demo", "Kotofey"],
    startedMinutesAgo: 2000,
    lines: [
      ["Kotofey", "Спасибо за совет по видеокарте, всё работает!"],
      ["demo", "Рад помочь 🙂"],
    ],
  },
  {
    kind: "personal",
    members: ["steam_seller", "Serega_CS"],
    startedMinutesAgo: 300,
    lines: [
      ["Serega_CS", "Скинешь скрины инвентаря?"],
      ["steam_seller", "Отправил, смотри"],
    ],
  },
];

/**
 * Inserts the demo conversations into `tx` (within the seed's transaction). `idByUsername` maps
 * the seeded members; the public conversation is created when missing (a wiped database has
 * lost it). Read markers: every member has read everything except the lines marked unread,
 * which stay unread for the demo member.
 */
export async function insertSeedConversations(tx: Db, idByUsername: Map<string, number>, now: number): Promise<void> {
  const id = (username: string) => {
    const found = idByUsername.get(username);
    if (found === undefined) throw new Error(`seed conversation member ${username} is not a seeded member`);
    return found;
  };
  await tx.insert(conversations).values({ kind: "public", name: "Общий чат" }).onConflictDoNothing();
  const [publicRow] = await tx
    .select({ id: conversations.id })
    .from(conversations)
    .where(sql`${conversations.kind} = 'public'`);

  const demoId = id("demo");
  for (const conversation of CONVERSATIONS) {
    const startedAt = now - conversation.startedMinutesAgo * MINUTE_MS;
    let conversationId: number;
    if (conversation.kind === "public") {
      conversationId = publicRow!.id;
    } else {
      const memberIds = conversation.members.map(id);
      const [low, high] = [Math.min(...memberIds), Math.max(...memberIds)];
      const [row] = await tx
        .insert(conversations)
        .values(
          conversation.kind === "group"
            ? { kind: "group", name: conversation.name, ownerId: id(conversation.owner!), createdAt: new Date(startedAt - MINUTE_MS) }
            : { kind: "personal", personalLowId: low, personalHighId: high, createdAt: new Date(startedAt - MINUTE_MS) },
        )
        .returning({ id: conversations.id });
      conversationId = row!.id;
      await tx
        .insert(conversationMembers)
        .values(memberIds.map((userId, index) => ({ conversationId, userId, joinedAt: new Date(startedAt - MINUTE_MS + index * 1000) })));
    }
    // Lines go in one by one so replies can name the ids of earlier lines.
    const ids: number[] = [];
    let lastReadByDemo = 0;
    for (const [index, [author, body, options]] of conversation.lines.entries()) {
      const [row] = await tx
        .insert(messages)
        .values({
          conversationId,
          authorId: id(author),
          body,
          replyToId: options?.replyTo === undefined ? null : ids[options.replyTo]!,
          createdAt: new Date(startedAt + index * 3 * MINUTE_MS),
        })
        .returning({ id: messages.id });
      ids.push(row!.id);
      if (!options?.unread) lastReadByDemo = row!.id;
    }
    await tx
      .update(conversations)
      .set({ lastMessageAt: new Date(startedAt + (conversation.lines.length - 1) * 3 * MINUTE_MS) })
      .where(sql`${conversations.id} = ${conversationId}`);
    if (conversation.kind !== "public") {
      await tx
        .update(conversationMembers)
        .set({ lastReadMessageId: sql`case when ${conversationMembers.userId} = ${demoId} then ${lastReadByDemo}::integer else ${ids.at(-1)!}::integer end` })
        .where(sql`${conversationMembers.conversationId} = ${conversationId}`);
    }
  }
}
