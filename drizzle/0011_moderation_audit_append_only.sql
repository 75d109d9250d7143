-- Hand-written: the audit log is append-only in the database itself (issue 10,
-- docs/decisions/0016-moderation.md). Every row change is refused, whoever asks; TRUNCATE
-- (wiping a whole demo database, `npm run db:reseed`) stays an operator's act.
CREATE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "audit_log_no_update_delete" BEFORE UPDATE OR DELETE ON "audit_log" FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();
