/**
 * How statements go to PostgreSQL (app/db/client.server.ts, decision 0028): prepared once per
 * connection, except searches, whose plan depends on the words searched for.
 */
import { describe, expect, it } from "vitest";
import { statementOptions } from "./client.server";

describe("statementOptions", () => {
  it("prepares lists and lookups, a SELECT without parameters too", () => {
    expect(statementOptions('select "id" from "posts" where "posts"."author_id" = $1 order by "like_count" desc', [7])).toEqual({
      prepare: true,
      simple: false,
    });
    expect(statementOptions('select "id" from "posts" where "posts"."pinned_at" is not null', [])).toEqual({ prepare: true, simple: false });
    expect(statementOptions('with "hits" as (select 1) select * from "hits"', [])).toEqual({ prepare: true, simple: false });
  });

  it("plans full-text, trigram and LIKE searches for their values each time", () => {
    for (const search of [
      `select "id" from "posts" where "search_vector" @@ websearch_to_tsquery('russian', $1)`,
      'select "id" from "users" order by similarity("username", $1) desc',
      'select "id" from "users" where "username" ilike $1',
      'select "id" from "users" where lower("username") like $1',
    ]) {
      expect(statementOptions(search, ["патефон"]), search).toEqual({ prepare: false, simple: false });
    }
  });

  it("keeps the simple protocol for text without parameters that is not one SELECT", () => {
    expect(statementOptions("create index x on posts (id); analyze posts", []).simple).toBe(true);
    expect(statementOptions("select 1; select 2", []).simple).toBe(true);
    expect(statementOptions('update "users" set "theme" = \'dark\'', []).simple).toBe(true);
  });
});
