/**
 * Conversations and messages of the bench data set, as SQL statements: personal
 * conversations (one per pair), groups of 3 to 100 members, and the public «Общий чат»
 * (conversation 1, created by migration 0005) with a tenth of the messages.
 *
 * First a plan of the conversations (bench_conv: members, creation time, message count),
 * then the messages, then the conversations and their members — whose read markers and
 * last_message_at are taken from the messages written.
 */
import { at, joinedBy, joinedByTime, memberJoined, streamTime, username, type Model } from "./model";
import { allocate, distinctMember, pick, rnd, skewed } from "./sql";
import { CHAT, GROUP_NAMES } from "./texts";

/** The public conversation's id (the one row migration 0005 inserts). */
export const PUBLIC_CONVERSATION_ID = 1;
/** Share of the messages written in the public conversation. */
const PUBLIC_SHARE = 0.1;

const END = (m: Model) => `timestamptz '${m.end}'`;

/** Member `jj` (1-based; 1 is the owner) of the group planned in row `c` of bench_conv. */
function groupMember(jj: string, c: string): string {
  const other = distinctMember({
    i: `(${jj}) - 1`,
    count: `${c}.size - 1`,
    space: `${c}.mg`,
    exclude: `${c}.owner_id`,
    offset: `floor((${c}.mg - 1) * power(${rnd(110, `${c}.key`)}, 2))`,
    spread: `(0.95 * ${rnd(111, `${c}.key`)})`,
  });
  return `case when (${jj}) = 1 then ${c}.owner_id else ${other} end`;
}

/**
 * CREATE bench_conv: the public conversation (id 1), then personal and group conversations
 * numbered 2, 3, … by creation time, with the number of messages each gets (exactly
 * `messages` in all).
 */
export function conversationPlanSql(m: Model): string {
  const { members, personalConversations, groups, messages } = m.sizes;
  const publicMessages = Math.round(messages * PUBLIC_SHARE);
  const lows = `
    select i as id, case when i = ${m.ids.demo} then 20 when ${rnd(112, "i")} < 0.4 then power(1 - ${rnd(113, "i")}, ${-1 / 1.5}) / power(i, 0.2) else 0 end as w,
           ${members} - i as cap
    from generate_series(1, ${members}) i`;
  const partner = distinctMember({
    i: "j",
    count: "a.n",
    space: `${members} - a.id`,
    exclude: "0",
    offset: `floor((${members} - a.id) * power(${rnd(114, "a.id")}, 2))`,
    spread: `(0.95 * ${rnd(115, "a.id")})`,
  });
  const personal = `
    select 'personal'::text as kind, p.a::bigint * ${members + 1} + p.b as key, p.a as low_id, p.b as high_id,
           null::int as owner_id, 2 as size, 0 as mg, null::text as name,
           greatest(${memberJoined(m, "p.a")}, ${memberJoined(m, "p.b")})
             + (${END(m)} - greatest(${memberJoined(m, "p.a")}, ${memberJoined(m, "p.b")})) * ${rnd(116, "p.a", "p.b")} as created_at
    from (
      select a.id as a, a.id + ${partner} as b
      from (${allocate(lows, { weight: "w", cap: "cap", total: personalConversations, alias: "n" })}) a
      cross join lateral generate_series(1, a.n) j
    ) p`;
  const group = `
    select 'group'::text, -g::bigint, null::int, null::int, owner_id, least(mg, 3 + floor(97 * power(${rnd(117, "g")}, 4))::int), mg,
           ${pick(GROUP_NAMES, rnd(118, "g"))} || ' №' || g, ${streamTime(m, "g", groups)}
    from (select g, mg, ${skewed("mg", rnd(119, "g"), 2)} as owner_id
          from (select g, ${joinedBy(m, "g", groups)} as mg from generate_series(1, ${groups}) g) numbered) chosen`;
  const numbered = `
    select ${PUBLIC_CONVERSATION_ID} as id, 'public'::text as kind, 0::bigint as key, null::int as low_id, null::int as high_id,
           null::int as owner_id, 0 as size, 0 as mg, 'Общий чат'::text as name, ${at(m, "0")} as created_at, 0::float8 as w, 0 as cap
    union all
    select ${PUBLIC_CONVERSATION_ID} + row_number() over (order by c.created_at, c.key) as id, c.*,
           power(1 - ${rnd(120, "c.key")}, ${-1 / 1.5}) * sqrt(c.size), 100000
    from (${personal} union all ${group}) c`;
  return `
    create unlogged table bench_conv as
    select id, kind, key, low_id, high_id, owner_id, size, mg, name, created_at,
           case when kind = 'public' then ${publicMessages} else n end as messages,
           -- Messages come within a window after the conversation starts (the public one spans everything).
           case when kind = 'public' then extract(epoch from (${END(m)} - created_at))
                else extract(epoch from (${END(m)} - created_at)) * (0.05 + 0.95 * power(${rnd(121, "key")}, 2)) end as window_s
    from (${allocate(numbered, { weight: "w", cap: "cap", total: messages - publicMessages, alias: "n" })}) planned`;
}

/**
 * INSERT the messages: message j of a conversation at its place in the conversation's window
 * (the public one grows like the forum), by one of its members (in the public one, anyone
 * who had joined); some answer one of the five before (reply_to_id by lag()), one in a
 * hundred is deleted (body blanked, as deleteMessage does), public ones now and then mention
 * someone. Ids follow time across conversations, as serial ids do.
 */
export function messagesSql(m: Model): string {
  const u = (salt: number) => rnd(salt, "x.conversation_id", "x.j");
  const mention = `'@' || ${username(m, skewed(joinedByTime(m, "x.created_at"), u(130), 2))} || ' '`;
  const text = `case when x.kind = 'public' and ${u(131)} < 0.03 then ${mention} else '' end
      || ${pick(CHAT, u(132))} || case when ${u(133)} < 0.2 then ' ' || ${pick(CHAT, u(134))} else '' end`;
  const deleted = `${u(135)} < 0.01`;
  return `
    insert into messages (id, conversation_id, author_id, body, reply_to_id, created_at, edited_at, deleted_at)
    select x.id, x.conversation_id, x.author_id,
           case when ${deleted} then '' else ${text} end,
           x.reply_to_id, x.created_at,
           case when not (${deleted}) and ${u(136)} < 0.02 then x.created_at + (${END(m)} - x.created_at) * (0.01 * ${u(137)}) end,
           case when ${deleted} then x.created_at + (${END(m)} - x.created_at) * ${u(138)} end
    from (
      select n.*, case when n.back > 0 then lag(n.id, n.back) over (partition by n.conversation_id order by n.j) end as reply_to_id
      from (
        select s.*, row_number() over (order by s.created_at, s.conversation_id, s.j) as id
        from (
          select c.id as conversation_id, c.kind, j,
                 case when j > 1 and ${rnd(139, "c.id", "j")} < 0.08 then least(j - 1, 1 + floor(5 * ${rnd(140, "c.id", "j")})::int) else 0 end as back,
                 t.created_at,
                 case c.kind
                   when 'personal' then case when ${rnd(141, "c.id", "j")} < 0.5 then c.low_id else c.high_id end
                   when 'group' then ${groupMember(`1 + floor(c.size * ${rnd(142, "c.id", "j")})::int`, "c")}
                   else ${skewed(joinedByTime(m, "t.created_at"), rnd(143, "c.id", "j"), 2)}
                 end as author_id
          from bench_conv c
          cross join lateral generate_series(1, c.messages) j
          cross join lateral (
            select case when c.kind = 'public' then ${at(m, `power(j::float8 / (c.messages + 1), 0.6)`)}
                        else c.created_at + make_interval(secs => c.window_s * j / (c.messages + 1)) end as created_at
          ) t
        ) s
      ) n
    ) x
    order by x.id`;
}

/** INSERT the personal and group conversations, with the time of their last message; dates the public one from the forum's start. */
export function conversationsSql(m: Model): string[] {
  return [
    `insert into conversations (id, kind, name, owner_id, personal_low_id, personal_high_id, last_message_at, created_at)
     select c.id, c.kind, case when c.kind = 'group' then c.name end, c.owner_id, c.low_id, c.high_id, l.last_at, c.created_at
     from bench_conv c left join (select conversation_id, max(created_at) as last_at from messages group by conversation_id) l on l.conversation_id = c.id
     where c.kind <> 'public'
     order by c.id`,
    `update conversations set created_at = ${at(m, "0")},
       last_message_at = (select max(created_at) from messages where conversation_id = ${PUBLIC_CONVERSATION_ID})
     where id = ${PUBLIC_CONVERSATION_ID}`,
  ];
}

/**
 * INSERT the members of personal and group conversations. Each has read up to the last
 * message, or (one in seven, and demo everywhere) all but the last one to five — never
 * before their own last message, as sendMessage moves the marker.
 */
export function conversationMembersSql(m: Model): string {
  const unread = `case when x.user_id = ${m.ids.demo} then 2 when ${rnd(150, "x.conversation_id", "x.user_id")} < 0.85 then 0
                       else 1 + floor(5 * ${rnd(151, "x.conversation_id", "x.user_id")})::int end`;
  return `
    insert into conversation_members (conversation_id, user_id, last_read_message_id, joined_at)
    select x.conversation_id, x.user_id, greatest(coalesce(o.own_last, 0), coalesce(r.id, 0)), x.joined_at
    from (
      select c.id as conversation_id, case when jj = 1 then c.low_id else c.high_id end as user_id, c.created_at as joined_at
      from bench_conv c cross join generate_series(1, 2) jj where c.kind = 'personal'
      union all
      select c.id, ${groupMember("jj", "c")}, c.created_at
      from bench_conv c cross join lateral generate_series(1, c.size) jj where c.kind = 'group'
    ) x
    left join (select conversation_id, author_id, max(id) as own_last from messages group by conversation_id, author_id) o
      on o.conversation_id = x.conversation_id and o.author_id = x.user_id
    left join (select conversation_id, id, row_number() over (partition by conversation_id order by id desc) as rn
               from messages where conversation_id <> ${PUBLIC_CONVERSATION_ID}) r
      on r.conversation_id = x.conversation_id and r.rn = ${unread} + 1`;
}
