#!/usr/bin/env node
/**
 * Checks the repository's references to documents (docs/product/engineering.md#comments-and-docs):
 *
 * 1. No file refers to a document outside the repository: the original specification, the product
 *    decisions and the house style that once lived in a shared folder beside it (their names are
 *    built below, so this file does not match itself).
 * 2. Every `docs/….md` or `docs/….md#anchor` named in code, tests, scripts or docs exists, and so
 *    does the heading the anchor names (GitHub's slugs).
 * 3. Every relative Markdown link inside docs/ and README.md (`[text](money.md#holds)`,
 *    `[text](#holds)`, `[text](../decisions/)`) points at an existing file or folder and heading.
 *
 * Prints one line per problem (`file:line: message`) and exits 1 when there is any; 0 otherwise.
 * Usage: node scripts/check-doc-refs.mjs (npm run check:docs).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Documents that lived beside the repository, never in it; a name is allowed again if the repository gains such a file. */
const OUTSIDE_DOCS = ["SPEC", "PRODUCT", "HOUSE_STYLE", "DEVELOPERS"].map((name) => `${name}.md`);
/** The shared folder those documents lived in, as a relative and as an absolute path. */
const OUTSIDE_FOLDERS = [new RegExp(["\\.\\.", "shared\\b"].join("/"), "u"), new RegExp(["", "work", "shared\\b"].join("/"), "u")];

/** `docs/<path>.md` or `docs/<path>.md#<anchor>` anywhere in a text. */
const DOC_REF = /(?<![\w./-])docs\/[\w./-]*?\.md(?:#[\w-]+)?/gu;
/** A Markdown link's target: `](target)`. */
const MD_LINK = /\]\(([^)\s]+)\)/gu;

const SKIP_DIRS = new Set([".git", "node_modules", "build", "data", ".react-router", "test-results", "playwright-report", "coverage"]);
const TEXT_EXTENSIONS = new Set([
  ".ts",
  ".tsx",
  ".js",
  ".mjs",
  ".cjs",
  ".jsx",
  ".json",
  ".md",
  ".sql",
  ".sh",
  ".yml",
  ".yaml",
  ".css",
  ".html",
  ".txt",
  ".toml",
  "",
]);
const SKIP_FILES = new Set(["package-lock.json"]);

/** The files to check: tracked and new files not ignored by git; a directory walk without git. */
function listFiles() {
  try {
    const out = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], {
      cwd: ROOT,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    return out.split("\0").filter((file) => file && existsSync(path.join(ROOT, file)));
  } catch {
    const files = [];
    const walk = (dir) => {
      for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
        const rel = dir ? `${dir}/${entry.name}` : entry.name;
        if (entry.isDirectory()) {
          if (!SKIP_DIRS.has(entry.name) && !rel.startsWith("tests/.tmp")) walk(rel);
        } else files.push(rel);
      }
    };
    walk("");
    return files;
  }
}

function isText(file) {
  const base = path.basename(file);
  if (SKIP_FILES.has(base) || file.startsWith("drizzle/meta/")) return false;
  return TEXT_EXTENSIONS.has(path.extname(file)) || base.startsWith(".");
}

/** GitHub's anchor of a heading's text: lower case, formatting and punctuation dropped, spaces → hyphens. */
export function slugOf(heading) {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/gu, "$1")
    .replace(/<[^>]+>/gu, "")
    .replace(/[`*]/gu, "")
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/gu, "-");
}

const anchorCache = new Map();

/** The anchors of Markdown file `file` (repository-relative), duplicates numbered as GitHub does. */
function anchorsOf(file) {
  if (anchorCache.has(file)) return anchorCache.get(file);
  const anchors = new Set();
  const seen = new Map();
  let fenced = false;
  for (const line of readFileSync(path.join(ROOT, file), "utf8").split("\n")) {
    if (/^\s*(```|~~~)/u.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/u.exec(line);
    if (heading) {
      const slug = slugOf(heading[1]);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/gu)) anchors.add(match[1]);
  }
  anchorCache.set(file, anchors);
  return anchors;
}

/** A problem with `target` (repository-relative path, optional anchor), or null when it resolves. */
function checkTarget(target, anchor) {
  const full = path.join(ROOT, target);
  if (!full.startsWith(ROOT) || !existsSync(full)) return `${target} does not exist`;
  if (anchor === undefined) return null;
  if (statSync(full).isDirectory() || !target.endsWith(".md")) return `${target} is not a Markdown file, so #${anchor} cannot resolve`;
  if (!anchorsOf(target).has(anchor)) return `${target} has no heading #${anchor}`;
  return null;
}

const problems = new Set();
const allFiles = listFiles();
const files = allFiles.filter(isText);
const present = new Set(allFiles.map((file) => path.basename(file)));
const outsideNames = OUTSIDE_DOCS.filter((doc) => !present.has(doc)).map((doc) => doc.replace(".", "\\."));
const OUTSIDE = [...(outsideNames.length > 0 ? [new RegExp(`\\b(?:${outsideNames.join("|")})\\b`, "u")] : []), ...OUTSIDE_FOLDERS];
const self = path.relative(ROOT, fileURLToPath(import.meta.url));

for (const file of files) {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  const lines = text.split("\n");
  const isMarkdown = file.endsWith(".md");
  let fenced = false;
  lines.forEach((line, index) => {
    const where = `${file}:${index + 1}`;
    if (file !== self) {
      for (const pattern of OUTSIDE) {
        const found = pattern.exec(line);
        if (found) problems.add(`${where}: refers to a document outside the repository (${found[0]}); point at docs/ instead`);
      }
    }
    for (const match of line.matchAll(DOC_REF)) {
      const [target, anchor] = match[0].split("#");
      const problem = checkTarget(target.replace(/\.+$/u, ""), anchor);
      if (problem) problems.add(`${where}: ${problem}`);
    }
    if (isMarkdown) {
      if (/^\s*(```|~~~)/u.test(line)) fenced = !fenced;
      if (fenced) return;
      for (const match of line.matchAll(MD_LINK)) {
        const link = match[1];
        if (/^[a-z][a-z0-9+.-]*:/iu.test(link) || link.startsWith("//")) continue;
        const [pathPart, anchor] = link.split("#");
        const target = pathPart ? path.posix.normalize(path.posix.join(path.posix.dirname(file), pathPart)) : file;
        if (target.startsWith("..")) {
          problems.add(`${where}: ${link} leaves the repository`);
          continue;
        }
        const problem = checkTarget(target.replace(/\/$/u, ""), anchor);
        if (problem) problems.add(`${where}: link ${link}: ${problem}`);
      }
    }
  });
}

if (problems.size > 0) {
  for (const problem of problems) console.error(problem);
  console.error(`check-doc-refs: ${problems.size} problem${problems.size === 1 ? "" : "s"} in references to documents`);
  process.exit(1);
}
console.log(`check-doc-refs: ${files.length} files, every reference to a document resolves inside the repository`);
