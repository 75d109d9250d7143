/**
 * The fake assistant endpoint (tests/setup/fake-assistant.ts) as a process of its own, started by
 * playwright.config.ts beside the site (whose ASSISTANT_BASE_URL points here).
 */
import { startFakeAssistant } from "../setup/fake-assistant";

const port = Number(process.env.FAKE_ASSISTANT_PORT ?? 0);
const fake = await startFakeAssistant(port);
console.log(`Fake assistant listening at ${fake.baseUrl}`);
const stop = () => void fake.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
