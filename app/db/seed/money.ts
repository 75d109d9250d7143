/**
 * The demo community's money (issue 5): top-ups, transfers (one held), public deposits, guarantor
 * deals in every interesting state (completed, delivered and awaiting the demo member, disputed
 * for the moderators, a proposal awaiting the demo member) and claims (one upheld with
 * compensation, which puts a member on /blacklist, one open). Everything goes through the domain
 * functions, so the ledger's invariants hold for the demo as for real use; keys are fixed, so
 * running it twice moves nothing twice.
 */
import type { Db } from "~/db/client.server";
import { decideClaim, fileClaim } from "~/domain/claims/claims.server";
import { applyDealAction, createDeal, type DealAction } from "~/domain/deals/deals.server";
import { depositFunds } from "~/domain/ledger/deposits.server";
import { topUp, transferToMember } from "~/domain/ledger/wallet.server";

const HOUR_MS = 60 * 60 * 1000;
const roubles = (value: number) => value * 100;

/** Seeds the money of the demo community; `idByUsername` maps the seeded usernames to ids. */
export async function seedMoney(db: Db, idByUsername: Map<string, number>): Promise<void> {
  const id = (username: string) => {
    const found = idByUsername.get(username);
    if (found === undefined) throw new Error(`seed: no member ${username}`);
    return found;
  };
  const admin = id("admin");
  const moderator = id("dark_knight77");

  const topUps: [string, number][] = [
    ["demo", 25_000],
    ["cryptoVasya", 150_000],
    ["Olga_P2P", 80_000],
    ["steam_seller", 40_000],
    ["ton_hunter", 60_000],
    ["Marina_Trade", 30_000],
    ["Sanya_Trader", 15_000],
    ["bitok_ded", 100_000],
  ];
  for (const [username, amount] of topUps) await topUp(db, admin, id(username), roubles(amount), `seed-topup-${username}`);

  const deposits: [string, number][] = [
    ["cryptoVasya", 50_000],
    ["bitok_ded", 30_000],
    ["Olga_P2P", 20_000],
    ["steam_seller", 5_000],
    ["Sanya_Trader", 3_000],
  ];
  for (const [username, amount] of deposits) await depositFunds(db, id(username), roubles(amount), `seed-deposit-${username}`);

  await transferToMember(db, id("cryptoVasya"), id("demo"), roubles(1_500), { memo: "Спасибо за консультацию по TON" }, "seed-transfer-1");
  await transferToMember(
    db,
    id("demo"),
    id("steam_seller"),
    roubles(700),
    { holdHours: 48, memo: "Предоплата за ключ, сниму удержание после проверки" },
    "seed-transfer-2",
  );

  const now = Date.now();
  let step = 0;
  let deals = 0;
  const deal = async (
    creator: string,
    counterparty: string,
    role: "buyer" | "seller",
    amount: number,
    description: string,
    actions: [string, DealAction, Record<string, unknown>?][],
  ) => {
    const created = await createDeal(
      db,
      id(creator),
      { counterparty: id(counterparty), role, amount: roubles(amount), description, deadline: new Date(now + 72 * HOUR_MS), feePayer: "split" },
      `seed-deal-${(deals += 1)}`,
    );
    for (const [actor, action, input] of actions) {
      step += 1;
      await applyDealAction(db, id(actor), created.id, action, input ?? {}, `seed-deal-step-${step}`);
    }
    return created.id;
  };
  await deal("ton_hunter", "cryptoVasya", "seller", 12_000, "Продажа 1 500 USDT (TRC-20) по курсу 8 ₽ за доллар, перевод на кошелёк покупателя.", [
    ["cryptoVasya", "accept"],
    ["cryptoVasya", "fund"],
    ["ton_hunter", "deliver"],
    ["cryptoVasya", "confirm"],
  ]);
  await deal("bitok_ded", "hardware_guru", "buyer", 32_000, "Видеокарта RTX 3070, б/у, без майнинга, с коробкой. Отправка СДЭКом.", [
    ["hardware_guru", "accept"],
    ["bitok_ded", "fund"],
    ["hardware_guru", "deliver"],
    ["bitok_ded", "confirm"],
  ]);
  // A few more completed deals, so the leaderboard's «Сделки» has a table to show.
  const completed: [buyer: string, seller: string, amount: number, description: string][] = [
    ["Marina_Trade", "genshin_luna", 2_400, "Аккаунт Genshin Impact AR 58, пять персонажей пятой звезды."],
    ["ton_hunter", "cryptoVasya", 9_000, "Обмен 1 000 USDT (TRC-20) на рубли, перевод на карту."],
    ["Olga_P2P", "cryptoVasya", 15_000, "Покупка 170 TON по курсу, перевод на кошелёк Tonkeeper."],
    ["bitok_ded", "Grisha_Mining", 6_500, "Блок питания 1600 Вт для фермы, проверенный, с гарантией месяц."],
    ["cryptoVasya", "eth_vitya", 4_000, "Настройка и проверка смарт-контракта для NFT-коллекции."],
    ["ton_hunter", "Max_Boost", 1_800, "Калибровка аккаунта Dota 2, 10 игр."],
  ];
  for (const [buyer, seller, amount, description] of completed) {
    await deal(buyer, seller, "buyer", amount, description, [
      [seller, "accept"],
      [buyer, "fund"],
      [seller, "deliver"],
      [buyer, "confirm"],
    ]);
  }
  await deal("steam_seller", "demo", "seller", 3_500, "Аккаунт Steam: 40 игр, родная почта, без VAC-банов.", [
    ["demo", "accept"],
    ["demo", "fund"],
    ["steam_seller", "deliver"],
  ]);
  await deal("Olga_P2P", "Max_Boost", "buyer", 4_000, "Буст рейтинга в Valorant с Gold до Diamond за неделю.", [
    ["Max_Boost", "accept"],
    ["Olga_P2P", "fund"],
    ["Olga_P2P", "dispute", { reason: "Прошла неделя, рейтинг поднят только до Platinum, исполнитель не отвечает." }],
  ]);
  await deal("Kotofey", "demo", "seller", 2_000, "Настольная игра «Каркассон» с двумя дополнениями, всё на месте.", []);

  const upheld = await fileClaim(
    db,
    id("Marina_Trade"),
    {
      accused: id("Sanya_Trader"),
      amount: roubles(5_000),
      description: "Договорились о продаже аккаунта Genshin Impact, Санёк попросил предоплату мимо гаранта и после оплаты пропал, сообщения не читает.",
      evidence: ["https://example.com/screenshots/chat-1.png", "https://example.com/screenshots/payment.png"],
    },
    "seed-claim-1",
  );
  await decideClaim(
    db,
    moderator,
    upheld.id,
    { decision: "uphold", note: "Взял предоплату мимо гаранта и не передал аккаунт; переписка и платёж подтверждены.", compensation: roubles(3_000) },
    "seed-claim-decision-1",
  );
  await fileClaim(
    db,
    id("nastya_design"),
    {
      accused: id("Serega_CS"),
      amount: roubles(1_200),
      description: "Заказал аватарку и баннер для канала, получил исходники и перестал отвечать, оплату так и не прислал.",
      evidence: ["https://example.com/screenshots/order.png"],
    },
    "seed-claim-2",
  );
}
