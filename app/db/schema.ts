/**
 * The Drizzle schema: one module, shared by PGlite and PostgreSQL. Migrations in drizzle/ are
 * generated from it with `npm run db:generate` and committed.
 *
 * The tables live in part files by area; this module only gathers them. The parts import one
 * another (schema-core.ts first), never this module, so the schema has no import cycle
 * (decision 0012). A new table goes in the part of its area, or in a new part re-exported here.
 */
export * from "./schema-core";
export * from "./schema-content";
export * from "./schema-chat";
export * from "./schema-money";
export * from "./schema-trust";
export * from "./schema-pages";
export * from "./schema-moderation";
export * from "./schema-ads";
