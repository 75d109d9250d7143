/**
 * Public shapes of claims and the blacklist (issue 5; docs/product/claims.md), shared by
 * the server, the /api calls and the browser. Types, limits and labels only: no server imports.
 */

export const CLAIM_STATUSES = ["open", "upheld", "rejected"] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];
export type ClaimDecision = "uphold" | "reject";

/** Russian labels of the claim statuses, as pages show them. */
export const CLAIM_STATUS_LABELS: Record<ClaimStatus, string> = {
  open: "На рассмотрении",
  upheld: "Удовлетворена",
  rejected: "Отклонена",
};

/** Limits of a claim (issue 5 brief): description length, evidence links, the moderator's note. */
export const CLAIM_LIMITS = {
  descriptionMin: 10,
  descriptionMax: 5000,
  evidenceMax: 10,
  evidenceLinkMax: 500,
  noteMax: 2000,
} as const;

/** A member as a claim shows them (the shape of UserRefDto, kept here so browsers import no server module). */
export interface ClaimPartyDto {
  id: number;
  username: string;
  displayName: string | null;
  image: string | null;
  ranks: ("ADMIN" | "MODERATOR" | "VERIFIED" | "SCAMMER")[];
}

/** A claim as its parties, moderators and (once upheld) everyone see it. Amounts in kopecks, times ISO. */
export interface ClaimDto {
  id: number;
  status: ClaimStatus;
  claimant: ClaimPartyDto;
  accused: ClaimPartyDto;
  /** The guarantor deal between the two the claim refers to, or null. */
  dealId: number | null;
  /** What the claimant says they lost, kopecks. */
  amount: number;
  description: string;
  /** http(s) links, as filed. */
  evidence: string[];
  createdAt: string;
  decidedAt: string | null;
  decidedBy: ClaimPartyDto | null;
  /** The moderator's reason (shown on /blacklist for upheld claims). */
  decisionNote: string | null;
  /** Kopecks paid to the claimant from the accused's deposit, or null. */
  compensation: number | null;
}

/** One line of /blacklist and GET /api/profiles/blacklist: an upheld claim. */
export interface BlacklistEntryDto {
  claimId: number;
  accused: ClaimPartyDto;
  /** The moderator's reason for upholding. */
  reason: string;
  /** The claimed amount, kopecks. */
  amount: number;
  /** Compensation paid from the deposit, kopecks, or null. */
  compensation: number | null;
  /** When the claim was upheld (ISO). */
  date: string;
}

/** True for an http(s) link that a claim may carry as evidence (the shape only; length checked apart). */
export function isEvidenceLink(value: string): boolean {
  if (!/^https?:\/\//iu.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
  } catch {
    return false;
  }
}
