// @ts-check
import { randomUUID } from "node:crypto";
import { pinoHttp } from "pino-http";
import { redactUrl, runWithRequestLogger } from "../app/lib/logger.server.js";

/** The header carrying the request id, in from a trusted proxy and out on every response. */
export const REQUEST_ID_HEADER = "X-Request-Id";

/** Ids taken from a proxy: short and plain, so they cannot forge log lines. */
const VALID_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

/**
 * The request id: the incoming X-Request-Id when the peer is a trusted proxy (TRUST_PROXY,
 * Express's "trust proxy fn") and the id is plain, otherwise a new UUID.
 * @param {import("express").Request} req
 * @returns {string}
 */
export function requestIdOf(req) {
  return requestIdFor(req, /** @type {(address: string, hop: number) => boolean} */ (req.app.get("trust proxy fn")));
}

/**
 * requestIdOf for a request Express has not seen, given the "trust proxy fn" (`trusted`).
 * @param {import("http").IncomingMessage} req
 * @param {(address: string, hop: number) => boolean} trusted
 * @returns {string}
 */
export function requestIdFor(req, trusted) {
  const incoming = req.headers["x-request-id"];
  if (typeof incoming === "string" && VALID_REQUEST_ID.test(incoming) && trusted(req.socket.remoteAddress ?? "", 0)) return incoming;
  return randomUUID();
}

/**
 * The request log's line for a request answered before Express (the visitor page cache and
 * members' polled calls, server/index.js): the same fields, message and level as
 * requestLogging's, logged when the response has been sent. `startedAt` is Date.now() when the request came in (ms).
 * @param {import("pino").Logger} logger
 * @param {import("http").IncomingMessage} req
 * @param {import("http").ServerResponse} res
 * @param {{ reqId: string, ip: string, startedAt: number }} request
 */
export function logWhenSent(logger, req, res, { reqId, ip, startedAt }) {
  res.once("finish", () => {
    const responseTime = Date.now() - startedAt;
    const url = redactUrl(req.url ?? "/");
    const level = res.statusCode >= 500 ? "error" : "info";
    logger[level]({ reqId, method: req.method, url, statusCode: res.statusCode, ip, responseTime }, `${req.method} ${url} ${res.statusCode} ${responseTime}ms`);
  });
}

/**
 * The request log and request ids (issue 15), as Express middleware: gives each request an
 * id (requestIdOf), answers it in X-Request-Id, sets `req.log` (a child logger bound to
 * `reqId`) and makes it the current logger of everything the request runs
 * (runWithRequestLogger); when the response ends, logs one line — method, path with secret
 * query values masked, status, time in ms and the client's address, never headers — at info,
 * or error for a 5xx. `ignore(req)` skips requests (static assets).
 * @param {import("pino").Logger} logger
 * @param {{ ignore?: (req: import("http").IncomingMessage) => boolean }} [options]
 * @returns {import("express").RequestHandler[]}
 */
export function requestLogging(logger, { ignore } = {}) {
  const http = pinoHttp({
    logger,
    quietReqLogger: true,
    quietResLogger: true,
    genReqId: (req, res) => {
      const id = requestIdOf(/** @type {import("express").Request} */ (req));
      res.setHeader(REQUEST_ID_HEADER, id);
      return id;
    },
    autoLogging: ignore ? { ignore } : true,
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? "error" : "info"),
    customSuccessObject: (req, res, fields) => ({ ...summary(req, res), responseTime: fields.responseTime }),
    customErrorObject: (req, res, error, fields) => ({ ...summary(req, res), responseTime: fields.responseTime, err: error }),
    customSuccessMessage: (req, res, responseTime) => `${req.method} ${redactUrl(original(req))} ${res.statusCode} ${responseTime}ms`,
    customErrorMessage: (req, res) => `${req.method} ${redactUrl(original(req))} ${res.statusCode} failed`,
  });
  return [http, (req, _res, next) => runWithRequestLogger(req.log, next)];
}

/**
 * @param {import("http").IncomingMessage} req
 * @returns {string}
 */
function original(req) {
  return /** @type {import("express").Request} */ (req).originalUrl ?? req.url ?? "/";
}

/**
 * @param {import("http").IncomingMessage} req
 * @param {import("http").ServerResponse} res
 */
function summary(req, res) {
  return { method: req.method, url: redactUrl(original(req)), statusCode: res.statusCode, ip: /** @type {import("express").Request} */ (req).ip };
}

/**
 * The last Express middleware: answers an error no route handled (500, or the 4xx it
 * carries) and hands it to the request log's line instead of Express printing its stack.
 * @type {import("express").ErrorRequestHandler}
 */
export function unhandledErrors(error, req, res, _next) {
  const status = Number(error?.status ?? error?.statusCode);
  const clientError = status >= 400 && status < 500;
  if (!clientError) /** @type {{ err?: unknown }} */ (res).err = error;
  if (res.headersSent) {
    req.socket.destroy();
    return;
  }
  res
    .status(clientError ? status : 500)
    .type("text/plain; charset=utf-8")
    .send(clientError ? "Некорректный запрос." : "Внутренняя ошибка сервера.");
}
