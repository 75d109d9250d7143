import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, DEFAULT_ASSISTANT_SYSTEM_PROMPT, getConfig, parseConfig } from "./config.server";
import { REALTIME_TIMING } from "./realtime/frames";

const dataDir = mkdtempSync(path.join(tmpdir(), "config-test-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const configWith = (env: Record<string, string>) => getConfig({ DATA_DIR: dataDir, SESSION_SECRET: "test-secret", ...env });

/** The ConfigError `env` is refused with. */
function refusal(env: Record<string, string>): ConfigError {
  try {
    configWith(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe("defaults (the README's configuration table)", () => {
  it("gives every documented default when nothing is set", () => {
    const config = parseConfig({});
    expect(config).toEqual({
      nodeEnv: "development",
      production: false,
      port: 3000,
      webConcurrency: 1,
      host: "0.0.0.0",
      databaseUrl: undefined,
      dataDir: path.resolve("./data"),
      buildDir: path.resolve("./build"),
      sessionSecret: undefined,
      publicUrl: "http://localhost:3000",
      siteName: "Сходка",
      seedDemo: true,
      trustProxy: "loopback",
      logLevel: "info",
      passwordHashing: "standard",
      realtimeTransport: "ws",
      realtimeSsePath: "/api/sse",
      realtimeAuthTimeoutMs: REALTIME_TIMING.authTimeoutMs,
      realtimeMaxConnectionsPerAddress: 100,
      realtimeMaxConnectionsPerMember: 20,
      telegramBotToken: undefined,
      telegramInitDataMaxAgeS: 86_400,
      telegramInitDataMaxSkewS: 60,
      rateLimits: {},
      smtpUrl: undefined,
      mailFrom: '"Сходка" <no-reply@localhost>',
      imageAllowedHosts: [],
      recaptchaSiteKey: undefined,
      recaptchaSecretKey: undefined,
      recaptchaMinScore: 0.5,
      recaptchaVerifyUrl: "https://www.google.com/recaptcha/api/siteverify",
      assistant: {
        enabled: false,
        baseUrl: "",
        apiKey: undefined,
        model: "",
        dailyQuota: 50,
        timeoutMs: 30_000,
        maxPromptChars: 4000,
        systemPrompt: DEFAULT_ASSISTANT_SYSTEM_PROMPT,
      },
    });
  });

  it("treats an empty variable as unset", () => {
    expect(parseConfig({ PORT: "", SITE_NAME: "", SEED_DEMO: "", LOG_LEVEL: "" })).toMatchObject({
      port: 3000,
      siteName: "Сходка",
      seedDemo: true,
      logLevel: "info",
    });
  });

  it("derives PUBLIC_URL from PORT and MAIL_FROM from SITE_NAME and PUBLIC_URL's host", () => {
    expect(parseConfig({ PORT: "8080", SITE_NAME: "Клуб" })).toMatchObject({ publicUrl: "http://localhost:8080", mailFrom: '"Клуб" <no-reply@localhost>' });
    expect(parseConfig({ PUBLIC_URL: "https://shodka.example/" })).toMatchObject({
      publicUrl: "https://shodka.example",
      mailFrom: '"Сходка" <no-reply@shodka.example>',
    });
  });

  it("reads every variable it is given", () => {
    const config = configWith({
      NODE_ENV: "production",
      PORT: "0",
      HOST: "127.0.0.1",
      DATABASE_URL: "postgresql://app@db.internal:5432/shodka",
      BUILD_DIR: "tests/.tmp/build-x",
      SEED_DEMO: "0",
      TRUST_PROXY: "10.0.0.0/8, uniquelocal",
      LOG_LEVEL: "warn",
      PASSWORD_HASHING: "fast-insecure-for-tests",
      REALTIME_TRANSPORT: "sse",
      REALTIME_AUTH_TIMEOUT_MS: "2500",
      TELEGRAM_BOT_TOKEN: "42:abc",
      SMTP_URL: "smtps://user:pass@smtp.example.com:465",
      MAIL_FROM: "Robot <robot@example.com>",
      RECAPTCHA_SITE_KEY: "site",
      RECAPTCHA_SECRET_KEY: "secret",
      RECAPTCHA_MIN_SCORE: "0.7",
      RECAPTCHA_VERIFY_URL: "http://127.0.0.1:9/siteverify",
    });
    expect(config).toMatchObject({
      production: true,
      port: 0,
      host: "127.0.0.1",
      databaseUrl: "postgresql://app@db.internal:5432/shodka",
      buildDir: path.resolve("tests/.tmp/build-x"),
      sessionSecret: "test-secret",
      seedDemo: false,
      trustProxy: "10.0.0.0/8,uniquelocal",
      logLevel: "warn",
      passwordHashing: "fast-insecure-for-tests",
      realtimeTransport: "sse",
      realtimeAuthTimeoutMs: 2500,
      telegramBotToken: "42:abc",
      smtpUrl: "smtps://user:pass@smtp.example.com:465",
      mailFrom: "Robot <robot@example.com>",
      recaptchaMinScore: 0.7,
      recaptchaVerifyUrl: "http://127.0.0.1:9/siteverify",
    });
  });

  it("takes TRUST_PROXY as Express does: booleans, hop counts, addresses and names", () => {
    expect(configWith({ TRUST_PROXY: "true" }).trustProxy).toBe(true);
    expect(configWith({ TRUST_PROXY: "false" }).trustProxy).toBe(false);
    expect(configWith({ TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(configWith({ TRUST_PROXY: "loopback,::1,fd00::/8,192.168.1.10" }).trustProxy).toBe("loopback,::1,fd00::/8,192.168.1.10");
  });

  it("generates SESSION_SECRET once into DATA_DIR when it is unset, on first use", () => {
    const own = path.join(mkdtempSync(path.join(tmpdir(), "config-secret-")), "data");
    try {
      const config = getConfig({ DATA_DIR: own });
      // Validating writes nothing: the logger reads the configuration in every process.
      expect(existsSync(own)).toBe(false);
      const first = config.sessionSecret;
      expect(first).toMatch(/^[0-9a-f]{64}$/);
      expect(readFileSync(path.join(own, "session-secret"), "utf8")).toBe(first);
      expect(getConfig({ DATA_DIR: own }).sessionSecret).toBe(first);
    } finally {
      rmSync(path.dirname(own), { recursive: true, force: true });
    }
  });
});

describe("bad values fail at start-up, naming the variable and what is wrong", () => {
  const cases: [string, string, RegExp][] = [
    ["NODE_ENV", "prod", /NODE_ENV: must be production, development or test \(got "prod"\)/],
    ["PORT", "http", /PORT: must be a whole number from 0 to 65535 \(got "http"\)/],
    ["PORT", "70000", /PORT: must be a whole number from 0 to 65535/],
    ["DATABASE_URL", "mysql://db/shodka", /DATABASE_URL: must be a postgres:\/\/ URL/],
    ["PUBLIC_URL", "shodka.example", /PUBLIC_URL: must be an http:\/\/ or https:\/\/ URL/],
    ["SEED_DEMO", "yes", /SEED_DEMO: must be 0 \(start empty\) or 1/],
    ["TRUST_PROXY", "my-proxy", /TRUST_PROXY: must be true, false, a number of hops/],
    ["TRUST_PROXY", "10.0.0.0/99", /TRUST_PROXY/],
    ["LOG_LEVEL", "verbose", /LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent/],
    ["PASSWORD_HASHING", "fast", /PASSWORD_HASHING: must be standard \(the default\) or fast-insecure-for-tests/],
    ["REALTIME_TRANSPORT", "polling", /REALTIME_TRANSPORT: must be ws or sse/],
    ["REALTIME_AUTH_TIMEOUT_MS", "0", /REALTIME_AUTH_TIMEOUT_MS: must be a whole number of milliseconds above 0/],
    ["TELEGRAM_INIT_DATA_MAX_AGE", "1.5", /TELEGRAM_INIT_DATA_MAX_AGE: must be a whole number of seconds above 0/],
    ["SMTP_URL", "mail.example.com", /SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/],
    ["RECAPTCHA_MIN_SCORE", "2", /RECAPTCHA_MIN_SCORE: must be a number from 0 to 1/],
    ["RECAPTCHA_VERIFY_URL", "ftp://verify", /RECAPTCHA_VERIFY_URL: must be an http:\/\/ or https:\/\/ URL/],
  ];
  for (const [name, value, message] of cases) {
    it(`${name}=${value}`, () => {
      expect(refusal({ [name]: value }).message).toMatch(message);
    });
  }

  it("lists every invalid variable at once", () => {
    const error = refusal({ PORT: "x", LOG_LEVEL: "loud", REALTIME_TRANSPORT: "carrier-pigeon" });
    expect(error.problems.map((line) => line.split(":")[0])).toEqual(["PORT", "LOG_LEVEL", "REALTIME_TRANSPORT"]);
    expect(error.message).toMatch(/^Invalid configuration/);
  });

  it("never repeats a secret's value", () => {
    const error = refusal({ DATABASE_URL: "mysql://root:hunter2@db/shodka", SMTP_URL: "smtp-password-in-here" });
    expect(error.message).toMatch(/DATABASE_URL/);
    expect(error.message).toMatch(/SMTP_URL/);
    expect(error.message).not.toContain("hunter2");
    expect(error.message).not.toContain("smtp-password-in-here");
  });
});

describe("REALTIME_SSE_PATH (docs/product/realtime.md#transports: a configured event-stream endpoint)", () => {
  it("defaults to /api/sse, the path the server answers", () => {
    expect(configWith({}).realtimeSsePath).toBe("/api/sse");
  });

  it("takes another path, without a trailing slash", () => {
    expect(configWith({ REALTIME_SSE_PATH: "/live/events/" }).realtimeSsePath).toBe("/live/events");
  });

  it("refuses anything that is not a path on this origin", () => {
    for (const value of ["events", "https://elsewhere.example/sse", "/api/sse?x=1", "/a b"]) {
      expect(() => configWith({ REALTIME_SSE_PATH: value })).toThrow(/REALTIME_SSE_PATH/);
    }
  });
});

describe("IMAGE_ALLOWED_HOSTS (issue 6: the image endpoint's allow-list)", () => {
  it("is empty by default: only the site itself", () => {
    expect(configWith({}).imageAllowedHosts).toEqual([]);
  });

  it("lists hosts, and refuses a URL in place of a host", () => {
    expect(configWith({ IMAGE_ALLOWED_HOSTS: "cdn.example.com,*.blob.example.net" }).imageAllowedHosts).toEqual(["cdn.example.com", "*.blob.example.net"]);
    expect(refusal({ IMAGE_ALLOWED_HOSTS: "https://cdn.example.com/" }).message).toMatch(/IMAGE_ALLOWED_HOSTS: must list hosts such as "cdn.example.com"/);
  });
});

describe("ASSISTANT_* (issue 11: the assistant of /chatgpt)", () => {
  it("is off without a base URL and a model, with the documented defaults", () => {
    expect(configWith({}).assistant).toMatchObject({ enabled: false, dailyQuota: 50, timeoutMs: 30_000, maxPromptChars: 4000 });
    expect(configWith({ ASSISTANT_BASE_URL: "http://127.0.0.1:9/v1" }).assistant.enabled).toBe(false);
  });

  it("is on with both, keeping the values given", () => {
    const assistant = configWith({
      ASSISTANT_BASE_URL: "https://llm.example/v1/",
      ASSISTANT_MODEL: "gpt-4o-mini",
      ASSISTANT_API_KEY: "sk-test",
      ASSISTANT_DAILY_QUOTA: "5",
      ASSISTANT_TIMEOUT_MS: "1500",
      ASSISTANT_MAX_PROMPT_CHARS: "100",
    }).assistant;
    expect(assistant).toMatchObject({
      enabled: true,
      baseUrl: "https://llm.example/v1",
      model: "gpt-4o-mini",
      apiKey: "sk-test",
      dailyQuota: 5,
      timeoutMs: 1500,
      maxPromptChars: 100,
    });
  });

  it("refuses malformed values, naming the variable", () => {
    expect(() => configWith({ ASSISTANT_DAILY_QUOTA: "0" })).toThrow(/ASSISTANT_DAILY_QUOTA/);
    expect(() => configWith({ ASSISTANT_TIMEOUT_MS: "soon" })).toThrow(/ASSISTANT_TIMEOUT_MS/);
    expect(() => configWith({ ASSISTANT_BASE_URL: "ftp://x" })).toThrow(/ASSISTANT_BASE_URL/);
  });
});

describe("issue 13's limits: RATE_LIMITS, realtime caps, Telegram clock skew", () => {
  it("has the documented defaults", () => {
    expect(configWith({})).toMatchObject({
      rateLimits: {},
      realtimeMaxConnectionsPerAddress: 100,
      realtimeMaxConnectionsPerMember: 20,
      telegramInitDataMaxSkewS: 60,
    });
  });

  it("overrides rate limits by name", () => {
    expect(configWith({ RATE_LIMITS: "transfers=60/60, registrations = 20/3600" }).rateLimits).toEqual({
      transfers: { points: 60, durationS: 60 },
      registrations: { points: 20, durationS: 3600 },
    });
  });

  it("refuses unknown names, malformed values and caps of 0, naming the variable", () => {
    for (const bad of ["nothing=1/1", "transfers=0/60", "transfers=1", "transfers=a/b"]) {
      expect(refusal({ RATE_LIMITS: bad }).message).toMatch(/RATE_LIMITS: must list name=points\/seconds/);
    }
    expect(refusal({ REALTIME_MAX_CONNECTIONS_PER_MEMBER: "0" }).message).toMatch(/REALTIME_MAX_CONNECTIONS_PER_MEMBER/);
    expect(refusal({ TELEGRAM_INIT_DATA_MAX_SKEW: "-1" }).message).toMatch(/TELEGRAM_INIT_DATA_MAX_SKEW/);
  });
});

describe("WEB_CONCURRENCY (issue 12)", () => {
  it("defaults to one process; more workers need PostgreSQL; refuses 0 and non-numbers", () => {
    expect(parseConfig({}).webConcurrency).toBe(1);
    expect(parseConfig({ WEB_CONCURRENCY: "2", DATABASE_URL: "postgres://localhost/shodka" }).webConcurrency).toBe(2);
    expect(() => parseConfig({ WEB_CONCURRENCY: "2" })).toThrow(/WEB_CONCURRENCY: more than 1 worker needs DATABASE_URL/);
    expect(() => parseConfig({ WEB_CONCURRENCY: "0" })).toThrow(/WEB_CONCURRENCY/);
    expect(() => parseConfig({ WEB_CONCURRENCY: "two" })).toThrow(/WEB_CONCURRENCY/);
  });
});
