/**
 * Russian names of balance-log and deposit-log entries (issue 5 items 2 and 3), shared by the
 * wallet and deposit pages. Pure: the browser bundle uses it.
 */
import type { DepositLogType } from "~/domain/ledger/deposits.server";
import type { BalanceLogType } from "~/domain/ledger/balances.server";

export const BALANCE_LOG_LABELS: Record<BalanceLogType, string> = {
  topup: "Пополнение",
  transfer_in: "Перевод от участника",
  transfer_out: "Перевод участнику",
  hold_out: "Перевод с удержанием",
  hold_release: "Удержание снято, деньги зачислены",
  deposit: "Внесено в депозит",
  deposit_withdrawal: "Возврат из депозита",
  deal_funding: "Оплата сделки",
  deal_payout: "Выплата по сделке",
  deal_refund: "Возврат по сделке",
  deal_fee: "Комиссия гаранта",
  claim_compensation: "Компенсация по претензии",
  ad_hold: "Оплата рекламы (удержано до проверки)",
  ad_release: "Возврат за отклонённую рекламу",
};

export const DEPOSIT_LOG_LABELS: Record<DepositLogType, string> = {
  deposit: "Пополнение депозита",
  withdrawal: "Вывод из депозита",
  compensation: "Компенсация по претензии",
};
