/**
 * Notifications of the bench data set: only for the known accounts (admin, moderator, demo)
 * and only of the last 30 days, so signed-in pages have a realistic inbox with unread ones.
 * Each row is what the app's rules (app/domain/notifications/subscribers.server.ts,
 * likes.server.ts) would have stored for the rows written: a reply to your comment beats a
 * comment on your post; likes grouped per item with every liker, newest first; new posts of
 * members you follow; mentions in the public conversation. All but the latest 15 of each
 * recipient are read.
 */
import { PUBLIC_CONVERSATION_ID } from "./chat";
import type { Model } from "./model";
import { rnd } from "./sql";

const INBOX_DAYS = 30;
const UNREAD = 15;

export function notificationsSql(m: Model): string {
  const end = `timestamptz '${m.end}'`;
  const since = `(${end} - interval '${INBOX_DAYS} days')`;
  const recipients = `(values ${[...new Set([m.ids.admin, m.ids.moderator, m.ids.demo])].map((id) => `(${id})`).join(", ")}) as r(id)`;
  const nulls = (...columns: string[]) => columns.map((c) => `null::int as ${c}`).join(", ");
  const liked = (table: string, column: string, type: string, key: string, postId: string, joins = "") => `
    select l.receiver_id as recipient_id, '${type}' as type,
           (array_agg(l.user_id order by l.created_at desc, l.user_id))[1] as sender_id,
           ${postId} as post_id, ${type === "POST_COMMENT_LIKE" ? `l.${column}` : "null::int"} as comment_id,
           ${type === "WALL_POST_LIKE" ? `l.${column}` : "null::int"} as wall_post_id, ${nulls("conversation_id", "message_id")},
           '${key}:' || l.${column} as group_key, array_agg(l.user_id order by l.created_at desc, l.user_id) as actor_ids,
           min(l.created_at) as created_at, max(l.created_at) as updated_at
    from ${table} l ${joins}
    where l.receiver_id in (select id from ${recipients})
    group by l.receiver_id, l.${column}${postId.startsWith("c.") ? `, ${postId}` : ""}
    having max(l.created_at) >= ${since}`;
  const events = `
    select r.id as recipient_id,
           case when pc.author_id = r.id then 'POST_COMMENT_REPLY' else 'POST_COMMENT_NEW' end as type,
           c.author_id as sender_id, c.post_id, c.id as comment_id, ${nulls("wall_post_id", "conversation_id", "message_id")},
           'comment:' || c.id as group_key, array[c.author_id] as actor_ids, c.created_at, c.created_at as updated_at
    from ${recipients}
    join comments c on c.created_at >= ${since} and c.author_id <> r.id
    join bench_plan p on p.id = c.post_id
    left join comments pc on pc.id = c.parent_id
    where pc.author_id = r.id or p.author_id = r.id
    union all
    ${liked("post_likes", "post_id", "POST_LIKE", "post", "l.post_id")}
    union all
    ${liked("comment_likes", "comment_id", "POST_COMMENT_LIKE", "comment", "c.post_id", "join comments c on c.id = l.comment_id")}
    union all
    ${liked("wall_post_likes", "wall_post_id", "WALL_POST_LIKE", "wall_post", "null::int")}
    union all
    select w.owner_id, 'WALL_POST_NEW', w.author_id, null, null, w.id, null, null, 'wall_post:' || w.id, array[w.author_id], w.created_at, w.created_at
    from wall_posts w
    where w.owner_id in (select id from ${recipients}) and w.author_id <> w.owner_id and w.created_at >= ${since}
    union all
    select f.follower_id, case when u.verified then 'POST_NEW_VERIFIED' else 'POST_NEW' end, p.author_id, p.id, null, null, null, null,
           'post:' || p.id, array[p.author_id], p.created_at, p.created_at
    from follows f
    join bench_plan p on p.author_id = f.followee_id and p.created_at >= greatest(f.created_at, ${since})
    join users u on u.id = p.author_id
    where f.follower_id in (select id from ${recipients})
    union all
    select u.id, 'PUBLIC_CONVERSATION_MESSAGE_MENTION', x.author_id, null, null, null, x.conversation_id, x.id,
           'message:' || x.id, array[x.author_id], x.created_at, x.created_at
    from messages x
    join users u on u.id in (select id from ${recipients}) and x.body like '@' || u.username || ' %'
    where x.conversation_id = ${PUBLIC_CONVERSATION_ID} and x.created_at >= ${since} and x.author_id <> u.id`;
  return `
    insert into notifications (recipient_id, type, sender_id, post_id, comment_id, wall_post_id, conversation_id, message_id,
                               group_key, actor_ids, read_at, created_at, updated_at)
    select recipient_id, type, sender_id, post_id, comment_id, wall_post_id, conversation_id, message_id, group_key, actor_ids,
           case when unread_rank > ${UNREAD} then updated_at + (${end} - updated_at) * ${rnd(160, "recipient_id", "hashtext(group_key || type)")} end,
           created_at, updated_at
    from (select e.*, row_number() over (partition by recipient_id order by updated_at desc, group_key) as unread_rank from (${events}) e) ranked
    order by created_at, recipient_id, group_key`;
}
