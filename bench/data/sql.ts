/**
 * SQL building blocks of the bench data generator. Everything random is a pure function of
 * row keys (PostgreSQL's hashint8extended), not random(): the same sizes give the same data,
 * and a value (a comment's author, a post's time) can be computed again wherever it is needed
 * instead of being looked up — that is what lets each table be one INSERT … SELECT.
 */

/** A uniform number in [0, 1) from integer SQL expressions and a salt (a different salt, an independent number). */
export function rnd(salt: number, ...keys: string[]): string {
  // 4294967311 is a prime above 2^32: distinct key tuples (each key below 2^32) give distinct inputs.
  const key = keys.map((k) => `(${k})::bigint`).reduce((acc, k) => `(${acc} * 4294967311 + ${k})`);
  return `((hashint8extended(${key}, ${salt}) & 2147483647)::float8 / 2147483648.0)`;
}

/** A text[] literal of constant strings (quoted here; they never come from input). */
export function textArray(values: readonly string[]): string {
  return `array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(", ")}]::text[]`;
}

/** The element of constant list `values` at a uniform position chosen by `u` (an expression in [0, 1)). */
export function pick(values: readonly string[], u: string): string {
  return `(${textArray(values)})[1 + floor(${values.length} * ${u})::int]`;
}

/** An integer in [1, n] skewed towards 1: member 1 is picked far more often than member n (`power` > 1). */
export function skewed(n: string, u: string, power: number): string {
  return `(1 + floor((${n})::float8 * power(${u}, ${power}))::int)`;
}

/**
 * Distinct members for a list: the `i`-th (1-based) of `count` members of 1…`space`, none
 * equal to `exclude` (0 excludes no one). Positions `offset + t(i)` with t strictly
 * increasing and below space − 1 (or space when nobody is excluded) never repeat modulo it,
 * and skipping the excluded member keeps them distinct — so a list needs no DISTINCT and no
 * ON CONFLICT, and its length is known before it is written. `spread` in [0, 1) stretches
 * the gaps; `offset` near 0 makes low ids (the most active members) frequent picks.
 */
export function distinctMember(opts: { i: string; count: string; space: string; exclude: string; offset: string; spread: string }): string {
  const room = `((${opts.space}) - case when (${opts.exclude}) > 0 then 1 else 0 end)`;
  const gap = `(${opts.spread} * greatest(0, ${room} - (${opts.count}))::float8 / greatest(1, ((${opts.count}) - 1) * ((${opts.count}) - 1))::float8)`;
  const t = `((${opts.i}) - 1 + floor(${gap} * ((${opts.i}) - 1) * ((${opts.i}) - 1))::int)`;
  const position = `(1 + ((${opts.offset})::bigint + ${t}) % greatest(1, ${room}))::int`;
  return `(${position} + case when (${opts.exclude}) > 0 and ${position} >= (${opts.exclude}) then 1 else 0 end)`;
}

/**
 * Shares `total` among the rows of `source` by weight, exactly: each row gets
 * floor(total × weight / Σ weight), capped at its cap, and what is left goes one each to the
 * rows with the largest remainders still under their cap (so the sum is `total` unless the
 * caps leave too little room). `source` needs an `id` column and the `weight` and `cap`
 * columns named; the share is added as column `alias` (helper columns are prefixed by it).
 */
export function allocate(source: string, opts: { weight: string; cap: string; total: string | number; alias: string }): string {
  const { weight, cap, total, alias } = opts;
  const [exact, base, missing, rank] = ["exact", "base", "missing", "rank"].map((c) => `${alias}_${c}`);
  return `
    select ${alias}_s.*, least(${alias}_s.${cap}, ${alias}_s.${base} + case when ${alias}_s.${rank} <= ${alias}_s.${missing} then 1 else 0 end)::int as ${alias}
    from (
      select f.*, (${total}) - sum(f.${base}) over () as ${missing},
             row_number() over (order by case when f.${base} < f.${cap} then f.${exact} - f.${base} else -1 end desc, f.id) as ${rank}
      from (
        select w.*, least(w.${cap}, floor(w.${exact}))::int as ${base}
        from (
          select v.*, case when sum(v.${weight}) over () > 0 then (${total})::float8 * v.${weight} / sum(v.${weight}) over () else 0 end as ${exact}
          from (${source}) v
        ) w
      ) f
    ) ${alias}_s`;
}

/** Seconds of an interval expression as float8. */
export const seconds = (interval: string) => `extract(epoch from (${interval}))`;
