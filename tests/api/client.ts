/** A tiny HTTP client for API tests: keeps cookies like a browser and can pose as another IP. */
import { get as httpGet, type IncomingHttpHeaders } from "node:http";
import { inject } from "vitest";
import { decodeHtml } from "../setup/html";

export { decodeHtml };

export class Client {
  private cookies = new Map<string, string>();
  constructor(
    readonly baseUrl: string = inject("baseUrl"),
    private readonly ip: string = randomClientAddress(),
  ) {}

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set("X-Forwarded-For", this.ip);
    if (this.cookies.size > 0) headers.set("Cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const response = await fetch(this.baseUrl + path, { ...init, headers, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const index = pair!.indexOf("=");
      const name = pair!.slice(0, index);
      const value = pair!.slice(index + 1);
      if (/Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /**
   * GETs `path` with Node's own HTTP client, which leaves the body as sent (fetch would inflate
   * a gzipped one): the status, headers and raw bytes, with this client's cookies and address.
   */
  rawGet(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
    const cookies = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    return new Promise((resolve, reject) => {
      const request = httpGet(
        this.baseUrl + path,
        { headers: { ...headers, "X-Forwarded-For": this.ip, ...(cookies ? { Cookie: cookies } : {}) } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
          response.on("error", reject);
        },
      );
      request.on("error", reject);
    });
  }

  /** POSTs form fields (application/x-www-form-urlencoded), like a browser form or Auth.js. */
  postForm(path: string, fields: Record<string, string>): Promise<Response> {
    return this.fetch(path, { method: "POST", body: new URLSearchParams(fields) });
  }

  async csrfToken(): Promise<string> {
    const response = await this.fetch("/api/auth/csrf");
    return ((await response.json()) as { csrfToken: string }).csrfToken;
  }

  /**
   * Registers a new member through the page's form and stays signed in. `csrf` is the token the
   * form carried: the CSRF cookie outlives the sign-in, so the member's later forms take it too.
   */
  async register(username = `user_${Math.random().toString(36).slice(2, 10)}`, password = "password-123") {
    const email = `${username.toLowerCase()}@example.test`;
    const page = await this.fetch("/auth/register");
    const html = await page.text();
    const csrf = csrfFromHtml(html);
    const honeypotFrom = decodeHtml(/name="from__confirm" value="([^"]*)"/.exec(html)?.[1] ?? "");
    const signin = await this.postForm("/auth/register", { csrf, username, email, password, redirect: "", from__confirm: honeypotFrom, name__confirm: "" });
    if (signin.status !== 302) throw new Error(`registration failed: ${signin.status} ${await signin.text()}`);
    return { username, email, password, csrf };
  }

  async signIn(email: string, password: string): Promise<Response> {
    const csrfToken = await this.csrfToken();
    return this.postForm("/api/auth/callback/credentials", { csrfToken, email, password, json: "true", callbackUrl: "/" });
  }
}

/**
 * A random client address from 16 million, so the per-address limits (registrations, sign-in
 * failures, live connections) of one test never meet another's (docs/product/limits.md#rate-limits).
 */
export function randomClientAddress(): string {
  const octet = () => Math.floor(Math.random() * 254) + 1;
  return `10.${octet()}.${octet()}.${octet()}`;
}

/** The CSRF token a page's forms carry. */
export function csrfFromHtml(html: string): string {
  return decodeHtml(/name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? "");
}
