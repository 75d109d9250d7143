/**
 * The layering rules of eslint.config.js (docs/decisions/0012-lint-layering.md) bite: a source
 * placed in a layer and importing what that layer may not gets the rule's error, one importing
 * what it may gets none, and two modules importing each other are a cycle. Sources are linted in
 * memory through ESLint's Node API, as `npm run lint` would lint them at that path.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { ESLint, type Linter } from "eslint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const eslint = new ESLint({ cwd: root });

/** The messages of the named rule when `code` is linted as if it were the file at `file`. */
async function problems(file: string, code: string, rule: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  expect(result, `${file} was linted`).toBeDefined();
  const fatal = result!.messages.filter((message) => message.fatal);
  expect(fatal, "the source parses").toEqual([]);
  return result!.messages.filter((message) => message.ruleId === rule);
}

const zone = (file: string, code: string) => problems(file, code, "import-x/no-restricted-paths");

describe("the domain", () => {
  const file = "app/domain/posts/layering-probe.server.ts";

  it("may not import React", async () => {
    const found = await zone(file, `import { useState } from "react";\nexport const probe = useState;\n`);
    expect(found).toHaveLength(1);
    expect(found[0]!.message).toContain('"react"');
    expect(found[0]!.message).toContain("no React");
    expect(found[0]!.line).toBe(1);
  });

  it("may not import React Router (it never sees a Request or a Response)", async () => {
    const found = await zone(file, `import { redirect } from "react-router";\nexport const probe = redirect;\n`);
    expect(found.map((message) => message.message)).toEqual([expect.stringContaining('"react-router"')]);
  });

  it("may not import a route, a component or a layout", async () => {
    const code = [
      `import { loader } from "~/routes/home";`,
      `import { Button } from "~/components/ui/button";`,
      `import Layout from "~/layouts/default";`,
      `export const probe = [loader, Button, Layout];`,
      ``,
    ].join("\n");
    const found = await zone(file, code);
    expect(found.map((message) => message.line)).toEqual([1, 2, 3]);
    for (const message of found) expect(message.message).toContain("never imports routes, components or layouts");
  });

  it("may not import a route by a relative path either", async () => {
    const found = await zone(file, `import { loader } from "../../routes/home";\nexport const probe = loader;\n`);
    expect(found).toHaveLength(1);
  });

  it("may import the database, app/lib and another area", async () => {
    const code = [
      `import { posts } from "~/db/schema";`,
      `import { NotFound } from "~/lib/errors";`,
      `import { getUserById } from "~/domain/users/users.server";`,
      `export const probe = [posts, NotFound, getUserById];`,
      ``,
    ].join("\n");
    expect(await zone(file, code)).toEqual([]);
  });
});

describe("app/lib", () => {
  it("may not import a component or a route; the runners that need them live in app/routes/_shared", async () => {
    const code = [
      `import { sentByFetcher } from "~/components/forms/fetcher-marker";`,
      `import { runFormAction } from "~/routes/_shared/money-form.server";`,
      `export const probe = [sentByFetcher, runFormAction];`,
      ``,
    ].join("\n");
    const found = await zone("app/lib/layering-probe.server.ts", code);
    expect(found.map((message) => message.line)).toEqual([1, 2]);
    expect(found[0]!.message).toContain("app/routes/_shared");
  });

  it("may be imported by those runners", async () => {
    const code = `import { readForm } from "~/lib/forms.server";\nimport { sentByFetcher } from "~/components/forms/fetcher-marker";\nexport const probe = [readForm, sentByFetcher];\n`;
    expect(await zone("app/routes/_shared/layering-probe.server.ts", code)).toEqual([]);
  });
});

describe("app/db", () => {
  it("may not import a layout", async () => {
    const found = await zone("app/db/layering-probe.ts", `import Layout from "~/layouts/default";\nexport const probe = Layout;\n`);
    expect(found).toHaveLength(1);
  });

  it("keeps the schema free of domain code", async () => {
    const found = await zone("app/db/schema-probe.ts", `import { toPostDto } from "~/domain/posts/posts.server";\nexport const probe = toPostDto;\n`);
    expect(found).toHaveLength(1);
    expect(found[0]!.message).toContain("import no domain code");
  });
});

describe("import cycles", () => {
  let dir: string;

  beforeAll(async () => {
    // Real files, since a cycle runs through the imported module's own imports on disk.
    await mkdir(path.join(root, "tests/.tmp"), { recursive: true });
    dir = await mkdtemp(path.join(root, "tests/.tmp/lint-cycle-"));
    await writeFile(path.join(dir, "a.ts"), `import { b } from "./b";\nexport const a = () => b();\n`);
    await writeFile(path.join(dir, "b.ts"), `import { a } from "./a";\nexport const b = () => a;\n`);
    await writeFile(path.join(dir, "c.ts"), `import { b } from "./b";\nexport const c = b;\n`);
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("are errors; a module that only imports into a cycle is not part of it", async () => {
    // tests/.tmp is ignored by the config, so lint these files with the ignores turned off.
    const unignored = new ESLint({ cwd: root, ignore: false });
    const results = await unignored.lintFiles([path.join(dir, "a.ts"), path.join(dir, "b.ts"), path.join(dir, "c.ts")]);
    const cycles = Object.fromEntries(
      results.map((result) => [path.basename(result.filePath), result.messages.filter((message) => message.ruleId === "import-x/no-cycle").length]),
    );
    expect(cycles).toEqual({ "a.ts": 1, "b.ts": 1, "c.ts": 0 });
  });
});
