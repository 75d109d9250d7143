#!/usr/bin/env node
// `npm ci` refuses a lock file that lacks an optional dependency some package declares (the
// platform builds of rollup, esbuild, Tailwind's oxide, sharp…), and `npm install` on one
// platform records only its own. This check, run by `npm run lint`, fails when the committed
// lock is incomplete, so a lock written on another machine cannot land and break `npm ci`.
import { readFileSync } from "node:fs";

const lock = JSON.parse(readFileSync(new URL("../package-lock.json", import.meta.url), "utf8"));
const packages = lock.packages ?? {};
const missing = [];
for (const [where, info] of Object.entries(packages)) {
  for (const name of Object.keys(info.optionalDependencies ?? {})) {
    // npm resolves a dependency from the nearest node_modules upwards.
    const candidates = [];
    let base = where;
    while (true) {
      candidates.push(`${base ? `${base}/` : ""}node_modules/${name}`);
      const cut = base.lastIndexOf("/node_modules/");
      if (cut < 0) {
        if (base) base = "";
        else break;
      } else base = base.slice(0, cut);
    }
    if (!candidates.some((candidate) => candidate in packages)) missing.push(`${where || "(root)"} → ${name}`);
  }
}
if (missing.length > 0) {
  console.error(`package-lock.json lacks ${missing.length} optional package(s); run \`npm install\` with every platform's packages:`);
  for (const line of missing.slice(0, 30)) console.error(`  ${line}`);
  process.exit(1);
}
console.log(`package-lock.json: every optional package of ${Object.keys(packages).length} entries is locked`);
