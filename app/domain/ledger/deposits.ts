/** Deposit rules shared by the server and the browser (PRODUCT.md Money "Deposit"). Pure. */

/** How long a withdrawal request waits before the money returns to the available balance, days. */
export const DEPOSIT_WITHDRAWAL_DAYS = 14;
