/**
 * The apiToken ends with the session it belongs to (issue 13 item 1): signing out, «Выйти на
 * других устройствах», ending one session and changing the password leave no working token
 * behind, and streams opened with an ended token close at once. Each device (session) has its
 * own token; /api/auth/me and the page data hand each browser its session's token.
 */
import { describe, expect, it } from "vitest";
import type { RealtimeFrame, SystemData } from "~/lib/realtime/frames";
import { isSystemError, openSse, openWs } from "../setup/realtime";
import { waitFor } from "../setup/wait";
import { Client, csrfFromHtml } from "./client";

const baseUrl = () => new Client().baseUrl;
const wsUrl = () => `${baseUrl().replace(/^http/, "ws")}/api/ws`;
const sseUrl = (token: string) => `${baseUrl()}/api/sse?type=notifications&api-token=${encodeURIComponent(token)}`;
const subscribed = (frame: RealtimeFrame) => frame.channel === "system" && (frame.data as SystemData).type === "subscribed";

/** A member signed in on two devices (two clients, two sessions), with each device's token. */
async function memberOnTwoDevices() {
  const phone = new Client();
  const { email, password } = await phone.register();
  const laptop = new Client();
  expect((await laptop.signIn(email, password)).status).toBe(200);
  const tokenOf = async (client: Client) => ((await (await client.fetch("/api/auth/me")).json()) as { user: { apiToken: string } }).user.apiToken;
  return { phone, laptop, email, password, phoneToken: await tokenOf(phone), laptopToken: await tokenOf(laptop) };
}

/** Whether `token` still opens an event stream (200) or is refused (401 invalid_token). */
async function sseStatus(token: string): Promise<number> {
  const stream = await openSse(sseUrl(token));
  stream.close();
  return stream.status;
}

describe("the apiToken ends with its session (issue 13 item 1)", () => {
  it("gives each session its own token", async () => {
    const { phoneToken, laptopToken } = await memberOnTwoDevices();
    expect(phoneToken).not.toBe(laptopToken);
    expect(await sseStatus(phoneToken)).toBe(200);
    expect(await sseStatus(laptopToken)).toBe(200);
  });

  it("signing out (POST /api/auth/signout) ends the token: a stolen copy opens nothing and its open streams close", async () => {
    const { phone, phoneToken, laptopToken } = await memberOnTwoDevices();
    const stream = await openSse(sseUrl(phoneToken));
    await stream.next(subscribed, "the stream to open");
    const socket = await openWs(wsUrl());
    await socket.auth(phoneToken);

    const csrfToken = await phone.csrfToken();
    expect((await phone.postForm("/api/auth/signout", { csrfToken, callbackUrl: "/", json: "true" })).status).toBe(200);

    expect((await socket.waitClosed()).code).toBe(4401);
    await stream.next(isSystemError("invalid_token"), "the stream's invalid_token frame");
    await waitFor(() => stream.ended() || undefined, "the stream to end");
    expect(await sseStatus(phoneToken)).toBe(401);
    const again = await openWs(wsUrl());
    again.send({ type: "auth", apiToken: phoneToken });
    expect((await again.waitClosed()).code).toBe(4401);
    // The other device is untouched.
    expect(await sseStatus(laptopToken)).toBe(200);
  });

  it("«Выйти на других устройствах» ends the other devices' tokens and closes their streams, keeping this one", async () => {
    const { phone, laptop, phoneToken, laptopToken } = await memberOnTwoDevices();
    const phoneSocket = await openWs(wsUrl());
    await phoneSocket.auth(phoneToken);
    const laptopSocket = await openWs(wsUrl());
    await laptopSocket.auth(laptopToken);

    const csrf = csrfFromHtml(await (await laptop.fetch("/profile/history")).text());
    expect((await laptop.postForm("/profile/history", { csrf, intent: "end-others" })).status).toBe(302);

    expect((await phoneSocket.waitClosed()).code).toBe(4401);
    expect(await sseStatus(phoneToken)).toBe(401);
    expect(laptopSocket.closed).toBeNull();
    expect(await sseStatus(laptopToken)).toBe(200);
    laptopSocket.close();
    expect((await phone.fetch("/api/auth/me")).status).toBe(401);
  });

  it("a password change ends the other devices' tokens; the device that changed it keeps a working one", async () => {
    const { phone, laptop, password, phoneToken } = await memberOnTwoDevices();
    const phoneSocket = await openWs(wsUrl());
    await phoneSocket.auth(phoneToken);

    const csrf = csrfFromHtml(await (await laptop.fetch("/profile/settings")).text());
    const changed = await laptop.postForm("/profile/settings", {
      csrf,
      intent: "password",
      currentPassword: password,
      newPassword: "another-password-456",
      confirmPassword: "another-password-456",
    });
    expect(changed.status).toBe(302);

    expect((await phoneSocket.waitClosed()).code).toBe(4401);
    expect(await sseStatus(phoneToken)).toBe(401);
    const laptopToken = ((await (await laptop.fetch("/api/auth/me")).json()) as { user: { apiToken: string } }).user.apiToken;
    expect(await sseStatus(laptopToken)).toBe(200);
    expect((await phone.fetch("/api/auth/me")).status).toBe(401);
  });
});
