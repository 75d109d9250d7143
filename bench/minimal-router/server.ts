/**
 * The minimal page's own server (bench/http's baseline): built into build/server/index.js with
 * react-router's production bundle, like the site's server/app.ts, and run in a process of its
 * own with NODE_ENV=production (React's production build), as the site is. Listens on PORT and
 * prints "listening" once it does.
 */
import { createServer } from "node:http";
import { createRequestListener } from "@react-router/node";
import * as build from "virtual:react-router/server-build";

const server = createServer(createRequestListener({ build, mode: "production" }));
server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening"));
