/**
 * Vitest global setup of the "api" project: the DATA_DIR templates every server of the run
 * starts from (tests/setup/server.ts), then one started server for every HTTP test file.
 */
import { rmSync } from "node:fs";
import type { TestProject } from "vitest/node";
import { makeDataTemplate, startServer } from "./server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  // The demo community is seeded on a copy of the migrated empty one: the run migrates once.
  const empty = await makeDataTemplate({ SEED_DEMO: "0" });
  const seeded = await makeDataTemplate({}, empty);
  const templates = { seeded, empty };
  project.provide("serverDataTemplates", templates);
  const server = await startServer({}, { templates });
  project.provide("baseUrl", server.baseUrl);
  return async () => {
    await server.stop();
    for (const dir of [seeded, empty]) rmSync(dir, { recursive: true, force: true });
  };
}
