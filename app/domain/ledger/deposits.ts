/** Deposit rules shared by the server and the browser (docs/product/money.md#deposits). Pure. */

/** How long a withdrawal request waits before the money returns to the available balance, days. */
export const DEPOSIT_WITHDRAWAL_DAYS = 14;
