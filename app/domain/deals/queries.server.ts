/**
 * Reading deals (docs/product/deals.md): the one mapper from rows to DealDto, a deal
 * with its history for its parties and moderators, a member's deals and the moderators'
 * queue of disputes. Lists load every party's name in the same query (no N+1).
 */
import { aliasedTable, asc, count, desc, eq, or, type SQL } from "drizzle-orm";
import type { Db, Tx } from "~/db/client.server";
import { dealTransitions, deals, users } from "~/db/schema";
import { Forbidden, NotFound } from "~/lib/errors";
import { isValidId } from "~/lib/ids";
import { toPage, type Page, type PageParams } from "~/lib/pagination";
import { isModeratorById } from "~/domain/users/roles.server";
import { memberBadge, memberBadgeColumns } from "~/domain/users/member-badge.server";
import { availableDealActions } from "./rules";
import type { DealAction, DealDetailDto, DealDto, DealMemberDto, DealTransitionDto } from "./types";

type DealRow = typeof deals.$inferSelect;

const buyer = aliasedTable(users, "buyer");
const seller = aliasedTable(users, "seller");
const resolver = aliasedTable(users, "resolver");

const dealColumns = {
  deal: deals,
  buyer: memberBadgeColumns(buyer),
  seller: memberBadgeColumns(seller),
  resolverName: resolver.username,
};

function selectDeals(db: Db | Tx) {
  return db
    .select(dealColumns)
    .from(deals)
    .innerJoin(buyer, eq(buyer.id, deals.buyerId))
    .innerJoin(seller, eq(seller.id, deals.sellerId))
    .leftJoin(resolver, eq(resolver.id, deals.resolvedBy));
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** Maps a deal row, its parties and its resolver's name to DealDto (the only mapper). */
export function toDealDto(row: DealRow, names: { buyer: DealMemberDto; seller: DealMemberDto; resolver: string | null }): DealDto {
  return {
    id: row.id,
    buyer: names.buyer,
    seller: names.seller,
    createdById: row.createdBy,
    amount: row.amount,
    fee: row.fee,
    feePayer: row.feePayer,
    buyerFee: row.buyerFee,
    sellerFee: row.sellerFee,
    description: row.description,
    deadline: row.deadline.toISOString(),
    state: row.state,
    fundedAt: iso(row.fundedAt),
    deliveredAt: iso(row.deliveredAt),
    autoCompleteAt: iso(row.autoCompleteAt),
    cancelRequestedBy: row.cancelRequestedBy,
    disputedBy: row.disputedBy,
    disputeReason: row.disputeReason,
    sellerShare: row.sellerShare,
    resolvedBy: row.resolvedBy !== null ? { id: row.resolvedBy, username: names.resolver ?? "" } : null,
    resolutionNote: row.resolutionNote,
    closedAt: iso(row.closedAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

type PartyColumns = Parameters<typeof memberBadge>[0];

function fromSelected(row: { deal: DealRow; buyer: PartyColumns; seller: PartyColumns; resolverName: string | null }): DealDto {
  return toDealDto(row.deal, { buyer: memberBadge(row.buyer), seller: memberBadge(row.seller), resolver: row.resolverName });
}

/** Deal `dealId` as DealDto (no access check), or null. Reads through `db` or a transaction. */
export async function loadDealDto(db: Db | Tx, dealId: number): Promise<DealDto | null> {
  const [row] = await selectDeals(db).where(eq(deals.id, dealId));
  return row ? fromSelected(row) : null;
}

/** Whether member `userId` moderates: the one rule of app/domain/users/roles.ts (kept under this name for the deal pages). */
export const isModerator = isModeratorById;

/** NotFound `deal_not_found`: an unknown deal, or one the caller may not see (404, not 403). */
export function dealNotFound(): NotFound {
  return new NotFound("Сделка не найдена", "deal_not_found");
}

/**
 * Deal `dealId` for `viewerId`: DealDetailDto with the transition log (oldest first) and the
 * actions the viewer may take now. Parties and moderators see it; anyone else (and an unknown
 * or malformed id) gets NotFound `deal_not_found` (docs/product/engineering.md#private-resources-answer-404: someone else's private
 * resource answers 404). docs/product/deals.md.
 */
export async function getDeal(db: Db, viewerId: number, dealId: number): Promise<DealDetailDto> {
  if (!isValidId(dealId)) throw dealNotFound();
  const deal = await loadDealDto(db, dealId);
  if (!deal) throw dealNotFound();
  const moderator = await isModeratorById(db, viewerId);
  const party = viewerId === deal.buyer.id || viewerId === deal.seller.id;
  if (!party && !moderator) throw dealNotFound();
  const actor = aliasedTable(users, "actor");
  const rows = await db
    .select({ transition: dealTransitions, actorName: actor.username })
    .from(dealTransitions)
    .leftJoin(actor, eq(actor.id, dealTransitions.actorId))
    .where(eq(dealTransitions.dealId, dealId))
    .orderBy(asc(dealTransitions.id));
  const transitions = rows.map(({ transition, actorName }): DealTransitionDto => ({
    id: transition.id,
    actor: transition.actorId !== null ? { id: transition.actorId, username: actorName ?? "" } : null,
    action: transition.action as DealTransitionDto["action"],
    fromState: transition.fromState,
    toState: transition.toState,
    note: transition.note,
    createdAt: transition.createdAt.toISOString(),
  }));
  const actions: DealAction[] = availableDealActions(
    { state: deal.state, buyerId: deal.buyer.id, sellerId: deal.seller.id, createdById: deal.createdById, cancelRequestedBy: deal.cancelRequestedBy },
    viewerId,
    moderator,
  );
  const role = viewerId === deal.buyer.id ? "buyer" : viewerId === deal.seller.id ? "seller" : "moderator";
  return { ...deal, transitions, viewer: { role, actions } };
}

async function pageOf(db: Db, where: SQL, params: PageParams): Promise<Page<DealDto>> {
  const rows = await selectDeals(db)
    .where(where)
    .orderBy(desc(deals.updatedAt), desc(deals.id))
    .limit(params.perPage)
    .offset((params.page - 1) * params.perPage);
  const [total] = await db.select({ value: count() }).from(deals).where(where);
  return toPage(rows.map(fromSelected), total?.value ?? 0, params);
}

/** Member `userId`'s deals as buyer or seller, most recently changed first, paged. */
export async function listDealsOf(db: Db, userId: number, params: PageParams): Promise<Page<DealDto>> {
  return pageOf(db, or(eq(deals.buyerId, userId), eq(deals.sellerId, userId))!, params);
}

/**
 * The moderators' queue: disputed deals, the longest waiting (oldest last change) first, paged.
 * Throws Forbidden (`not_moderator`) for anyone but a moderator or an admin.
 */
export async function listDisputedDeals(db: Db, moderatorId: number, params: PageParams): Promise<Page<DealDto>> {
  if (!(await isModeratorById(db, moderatorId))) throw new Forbidden("Очередь споров доступна только модераторам", "not_moderator");
  const where = eq(deals.state, "disputed");
  const rows = await selectDeals(db)
    .where(where)
    .orderBy(asc(deals.updatedAt), asc(deals.id))
    .limit(params.perPage)
    .offset((params.page - 1) * params.perPage);
  const [total] = await db.select({ value: count() }).from(deals).where(where);
  return toPage(rows.map(fromSelected), total?.value ?? 0, params);
}
