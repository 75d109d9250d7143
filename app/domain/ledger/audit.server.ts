/**
 * The ledger audit (docs/product/money.md#ledger-audit): re-derives what the money invariants
 * say (docs/product/money.md#invariants) from the immutable transfers and compares it with the
 * cached balances and with the rows that say why money moved — holds, deals, deposit
 * withdrawals, claims. It only reads: it never writes a transfer, a balance or a row, so a drift
 * it finds stays exactly as found for a person to investigate. The money scheduler runs it at
 * start-up and hourly (scheduler.server.ts) and every finding is logged at error level, one line
 * each, naming the account and the figures.
 *
 * Every check reads one REPEATABLE READ snapshot, so operations committing while it runs can
 * never look like drift: a snapshot holds each operation's transfers, balances and rows all or
 * not at all (they commit in one transaction). The same snapshot also makes the running-balance
 * check sound: account locks serialise every writer of an account, so an account's visible
 * transfers are always a prefix of its history in id order.
 */
import { sql, type SQL } from "drizzle-orm";
import { executeRows, type Db, type Tx } from "~/db/client.server";
import { logger } from "~/lib/logger.server";

/** What a finding is about. */
export type LedgerDriftKind =
  /** The cached balances of all accounts do not sum to zero: debits and credits differ. */
  | "unbalanced"
  /** An account's cached balance differs from credits − debits of its transfers. */
  | "balance_mismatch"
  /** An account other than platform_funding is below zero (cached or by its transfers). */
  | "negative_balance"
  /** A transfer's recorded balance-after differs from the running sum of the account's transfers. */
  | "balance_history"
  /** A member's held balance differs from the sum of their unreleased incoming holds. */
  | "held_mismatch"
  /** A hold row disagrees with its hold or release transfer (kind, amount). */
  | "hold_transfer"
  /** A deal's escrow does not hold what its state says (amount + buyer fee while funded, else 0). */
  | "escrow_mismatch"
  /** The platform fee taken from a deal's escrow is not its fee when completed, 0 otherwise. */
  | "deal_fee"
  /** A completed deposit withdrawal disagrees with its withdrawal transfer. */
  | "withdrawal_transfer"
  /** An upheld claim's compensation disagrees with its compensation transfer. */
  | "compensation_transfer"
  /** An ad request's escrow `ad:{id}` does not hold its price while pending and 0 once reviewed, or an approved ad was not paid exactly its price. */
  | "ad_escrow";

/** One drift: what, which account (null when the finding is not about one account), and the line to log. */
export interface LedgerDrift {
  kind: LedgerDriftKind;
  accountId: number | null;
  /** One readable line with the account and the figures in kopecks. */
  message: string;
}

/** What one audit read and found. */
export interface LedgerAuditReport {
  accounts: number;
  transfers: number;
  /** Empty when the ledger is consistent. */
  drifts: LedgerDrift[];
}

/** How often the scheduler audits the ledger (ms): hourly, besides once at start-up. */
export const LEDGER_AUDIT_INTERVAL_MS = 60 * 60 * 1000;

/** At most this many drifts of one kind are reported per audit, so a wide drift cannot flood the log. */
export const MAX_DRIFTS_PER_KIND = 100;

type Row = Record<string, unknown>;

/** A bigint/numeric column read as text, to a JS number (exact up to 2^53 kopecks, decision 0007). */
const n = (value: unknown): number => Number(value);

/** «account 12 (member_available of member 5)», «account 3 (escrow deal:7)», «account 2 (platform_funding)». */
function describeAccount(row: Row): string {
  const id = n(row.account_id);
  if (row.user_id !== null && row.user_id !== undefined) return `account ${id} (${String(row.kind)} of member ${n(row.user_id)})`;
  if (row.reference !== null && row.reference !== undefined) return `account ${id} (escrow ${String(row.reference)})`;
  return `account ${id} (${String(row.kind)})`;
}

function rows(tx: Tx, query: SQL): Promise<Row[]> {
  return executeRows<Row>(tx, query);
}

/**
 * Audits the ledger of `db` in one read-only REPEATABLE READ snapshot and returns what it read
 * and every drift found (at most MAX_DRIFTS_PER_KIND per kind). Changes nothing and logs
 * nothing (runLedgerAudit logs). Throws only when the database cannot be read.
 */
export async function auditLedger(db: Db): Promise<LedgerAuditReport> {
  return db.transaction(
    async (tx) => {
      const drifts: LedgerDrift[] = [];
      const limit = MAX_DRIFTS_PER_KIND;

      const [totals] = await rows(
        tx,
        sql`select (select count(*) from ledger_accounts)::int as accounts,
                   (select count(*) from ledger_transfers)::int as transfers,
                   (select coalesce(sum(balance), 0) from ledger_accounts)::text as total,
                   (select coalesce(sum(amount), 0) from ledger_transfers)::text as volume`,
      );
      if (n(totals!.total) !== 0) {
        drifts.push({
          kind: "unbalanced",
          accountId: null,
          message: `unbalanced: the cached balances of all accounts sum to ${n(totals!.total)} kopecks, not 0 (transfers move ${n(totals!.volume)} kopecks in all)`,
        });
      }

      const accounts = await rows(
        tx,
        sql`with credits as (select credit_account_id as id, sum(amount) as total from ledger_transfers group by credit_account_id),
                 debits as (select debit_account_id as id, sum(amount) as total from ledger_transfers group by debit_account_id),
                 derived as (
                   select a.id as account_id, a.kind, a.user_id, a.reference, a.balance,
                          coalesce(c.total, 0) as credit_sum, coalesce(d.total, 0) as debit_sum,
                          coalesce(c.total, 0) - coalesce(d.total, 0) as derived
                   from ledger_accounts a left join credits c on c.id = a.id left join debits d on d.id = a.id)
            select account_id, kind, user_id, reference, balance::text as balance, credit_sum::text as credits, debit_sum::text as debits, derived::text as derived
            from derived
            where balance <> derived or (kind <> 'platform_funding' and (balance < 0 or derived < 0))
            order by account_id`,
      );
      const mismatched = accounts.filter((row) => n(row.balance) !== n(row.derived));
      for (const row of mismatched.slice(0, limit)) {
        drifts.push({
          kind: "balance_mismatch",
          accountId: n(row.account_id),
          message: `balance_mismatch: ${describeAccount(row)}: cached balance ${n(row.balance)} kopecks, its transfers say ${n(row.derived)} (credits ${n(row.credits)} − debits ${n(row.debits)})`,
        });
      }
      const negative = accounts.filter((row) => row.kind !== "platform_funding" && (n(row.balance) < 0 || n(row.derived) < 0));
      for (const row of negative.slice(0, limit)) {
        drifts.push({
          kind: "negative_balance",
          accountId: n(row.account_id),
          message: `negative_balance: ${describeAccount(row)} is below zero: cached balance ${n(row.balance)} kopecks, by its transfers ${n(row.derived)}`,
        });
      }

      // The first transfer of each account whose recorded balance-after breaks the running sum.
      const history = await rows(
        tx,
        sql`with legs as (
                select id, debit_account_id as account_id, -amount as delta, debit_balance_after as recorded from ledger_transfers
                union all
                select id, credit_account_id, amount, credit_balance_after from ledger_transfers),
              running as (
                select account_id, id, recorded, sum(delta) over (partition by account_id order by id rows unbounded preceding) as expected
                from legs)
            select distinct on (r.account_id) r.account_id, a.kind, a.user_id, a.reference, r.id as transfer_id,
                   r.recorded::text as recorded, r.expected::text as expected
            from running r join ledger_accounts a on a.id = r.account_id
            where r.recorded <> r.expected
            order by r.account_id, r.id
            limit ${limit}`,
      );
      for (const row of history) {
        drifts.push({
          kind: "balance_history",
          accountId: n(row.account_id),
          message: `balance_history: ${describeAccount(row)}: transfer ${n(row.transfer_id)} records a balance after it of ${n(row.recorded)} kopecks, the account's transfers up to it sum to ${n(row.expected)}`,
        });
      }

      const held = await rows(
        tx,
        sql`with open_holds as (
                select recipient_id, sum(amount) as total, count(*) as holds from ledger_holds where released_at is null group by recipient_id),
              held as (select id, user_id, balance from ledger_accounts where kind = 'member_held')
            select h.id as account_id, 'member_held' as kind, coalesce(h.user_id, o.recipient_id) as user_id, null as reference,
                   coalesce(h.balance, 0)::text as balance, coalesce(o.total, 0)::text as holds_total, coalesce(o.holds, 0)::int as holds
            from held h full join open_holds o on o.recipient_id = h.user_id
            where coalesce(h.balance, 0) <> coalesce(o.total, 0)
            order by 3
            limit ${limit}`,
      );
      for (const row of held) {
        const account = row.account_id === null ? `member ${n(row.user_id)} (no member_held account)` : describeAccount(row);
        drifts.push({
          kind: "held_mismatch",
          accountId: row.account_id === null ? null : n(row.account_id),
          message: `held_mismatch: ${account}: held balance ${n(row.balance)} kopecks, the member's ${n(row.holds)} unreleased incoming holds sum to ${n(row.holds_total)}`,
        });
      }

      const holdTransfers = await rows(
        tx,
        sql`select h.id as hold_id, h.amount::text as amount, t.id as transfer_id, t.kind as transfer_kind, t.amount::text as transfer_amount,
                   r.id as release_id, r.kind as release_kind, r.amount::text as release_amount
            from ledger_holds h
            join ledger_transfers t on t.id = h.transfer_id
            left join ledger_transfers r on r.id = h.release_transfer_id
            where t.kind <> 'hold' or t.amount <> h.amount
               or (h.release_transfer_id is not null and (r.kind <> 'release' or r.amount <> h.amount))
            order by h.id
            limit ${limit}`,
      );
      for (const row of holdTransfers) {
        drifts.push({
          kind: "hold_transfer",
          accountId: null,
          message:
            `hold_transfer: hold ${n(row.hold_id)} of ${n(row.amount)} kopecks: its transfer ${n(row.transfer_id)} is a ${String(row.transfer_kind)} of ${n(row.transfer_amount)}` +
            (row.release_id === null ? "" : `, its release transfer ${n(row.release_id)} a ${String(row.release_kind)} of ${n(row.release_amount)}`),
        });
      }

      // Escrows named deal:{id}; ad escrows (ad:{id}) are checked below with their requests.
      const escrows = await rows(
        tx,
        sql`select a.id as account_id, 'escrow' as kind, null as user_id, coalesce(a.reference, 'deal:' || d.id) as reference,
                   d.id as deal_id, d.state, coalesce(a.balance, 0)::text as balance,
                   (case when d.state in ('funded', 'delivered', 'disputed') then d.amount + d.buyer_fee else 0 end)::text as expected
            from deals d left join ledger_accounts a on a.kind = 'escrow' and a.reference = 'deal:' || d.id
            where coalesce(a.balance, 0) <> case when d.state in ('funded', 'delivered', 'disputed') then d.amount + d.buyer_fee else 0 end
            union all
            select a.id, 'escrow', null, a.reference, null, null, a.balance::text, '0'
            from ledger_accounts a
            where a.kind = 'escrow' and a.reference like 'deal:%' and a.balance <> 0
              and not exists (select 1 from deals d where 'deal:' || d.id = a.reference)
            order by 1
            limit ${limit}`,
      );
      for (const row of escrows) {
        const account = row.account_id === null ? `escrow deal:${n(row.deal_id)} (no account)` : describeAccount(row);
        const why = row.deal_id === null ? "no such deal" : `deal ${n(row.deal_id)} is ${String(row.state)}`;
        drifts.push({
          kind: "escrow_mismatch",
          accountId: row.account_id === null ? null : n(row.account_id),
          message: `escrow_mismatch: ${account}: holds ${n(row.balance)} kopecks, ${why}, so it should hold ${n(row.expected)}`,
        });
      }

      const fees = await rows(
        tx,
        sql`select d.id as deal_id, d.state, d.fee::text as fee,
                   coalesce(sum(t.amount) filter (where t.kind = 'fee'), 0)::text as taken
            from deals d
            left join ledger_accounts a on a.kind = 'escrow' and a.reference = 'deal:' || d.id
            left join ledger_transfers t on t.debit_account_id = a.id
            group by d.id
            having coalesce(sum(t.amount) filter (where t.kind = 'fee'), 0) <> case when d.state = 'completed' then d.fee else 0 end
            order by d.id
            limit ${limit}`,
      );
      for (const row of fees) {
        const expected = row.state === "completed" ? n(row.fee) : 0;
        drifts.push({
          kind: "deal_fee",
          accountId: null,
          message: `deal_fee: deal ${n(row.deal_id)} is ${String(row.state)}: the platform took ${n(row.taken)} kopecks of fee from its escrow, it should have taken ${expected}`,
        });
      }

      const withdrawals = await rows(
        tx,
        sql`select w.id, w.user_id, w.completed_amount::text as completed_amount, t.id as transfer_id, t.kind as transfer_kind,
                   t.amount::text as transfer_amount
            from deposit_withdrawals w left join ledger_transfers t on t.id = w.transfer_id
            where w.state = 'completed'
              and (case when w.transfer_id is null then coalesce(w.completed_amount, -1) <> 0
                        else t.kind <> 'withdrawal' or t.amount <> w.completed_amount end)
            order by w.id
            limit ${limit}`,
      );
      for (const row of withdrawals) {
        drifts.push({
          kind: "withdrawal_transfer",
          accountId: null,
          message:
            `withdrawal_transfer: deposit withdrawal ${n(row.id)} of member ${n(row.user_id)} completed with ${row.completed_amount === null ? "no amount" : `${n(row.completed_amount)} kopecks`}, ` +
            (row.transfer_id === null
              ? "but no transfer"
              : `its transfer ${n(row.transfer_id)} is a ${String(row.transfer_kind)} of ${n(row.transfer_amount)}`),
        });
      }

      const compensations = await rows(
        tx,
        sql`select c.id, c.accused_id, c.claimant_id, c.compensation::text as compensation, t.id as transfer_id, t.kind as transfer_kind,
                   t.amount::text as transfer_amount
            from claims c left join ledger_transfers t on t.id = c.compensation_transfer_id
            where (c.compensation is null) <> (c.compensation_transfer_id is null)
               or (c.compensation_transfer_id is not null and (t.kind <> 'compensation' or t.amount <> c.compensation))
            order by c.id
            limit ${limit}`,
      );
      for (const row of compensations) {
        drifts.push({
          kind: "compensation_transfer",
          accountId: null,
          message:
            `compensation_transfer: claim ${n(row.id)} (member ${n(row.accused_id)} → member ${n(row.claimant_id)}) records ${row.compensation === null ? "no compensation" : `${n(row.compensation)} kopecks of compensation`}, ` +
            (row.transfer_id === null
              ? "and no transfer"
              : `its transfer ${n(row.transfer_id)} is a ${String(row.transfer_kind)} of ${n(row.transfer_amount)}`),
        });
      }

      // Ad requests (docs/product/money.md#recipe-ad-request-approval-and-rejection): escrow ad:{id}
      // holds the price while pending and nothing after; an approved ad paid the platform exactly its price.
      const ads = await rows(
        tx,
        sql`select c.id, c.state, c.amount::text as amount, coalesce(a.balance, 0)::text as balance,
                   coalesce((select sum(t.amount) from ledger_transfers t where t.debit_account_id = a.id and t.kind = 'ad_payment'), 0)::text as paid
            from ad_campaigns c left join ledger_accounts a on a.kind = 'escrow' and a.reference = 'ad:' || c.id
            where coalesce(a.balance, 0) <> case when c.state = 'pending' then c.amount else 0 end
               or coalesce((select sum(t.amount) from ledger_transfers t where t.debit_account_id = a.id and t.kind = 'ad_payment'), 0)
                  <> case when c.state = 'approved' then c.amount else 0 end
            order by c.id
            limit ${limit}`,
      );
      for (const row of ads) {
        drifts.push({
          kind: "ad_escrow",
          accountId: null,
          message: `ad_escrow: ad request ${n(row.id)} is ${String(row.state)} with a price of ${n(row.amount)} kopecks: its escrow holds ${n(row.balance)}, the platform was paid ${n(row.paid)}`,
        });
      }

      return { accounts: totals!.accounts as number, transfers: totals!.transfers as number, drifts };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

/**
 * Writes one drift at error level, one line naming the account and the figures. The only place
 * the audit's findings go.
 */
export function logLedgerDrift(drift: LedgerDrift): void {
  logger.error({ area: "ledger-audit", kind: drift.kind, accountId: drift.accountId }, `ledger audit: ${drift.message}`);
}

/**
 * Audits `db` (auditLedger) and logs every drift found with logLedgerDrift. Returns the report.
 * Never changes money. Throws when the database cannot be read (the scheduler logs that too).
 */
export async function runLedgerAudit(db: Db): Promise<LedgerAuditReport> {
  const report = await auditLedger(db);
  for (const drift of report.drifts) logLedgerDrift(drift);
  return report;
}
