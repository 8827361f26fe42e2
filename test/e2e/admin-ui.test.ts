import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe("admin UI in Chromium", () => {
  let server: TestServer;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("renders the page at / and its links reach the API", async () => {
    const page = await browser.context.newPage();
    const res = await page.goto(`${server.url}/`);
    expect(res?.status()).toBe(200);
    await expect(page.title()).resolves.toContain("Workflow service");
    expect(await page.locator("h1").textContent()).toContain("Workflow service");
    await page.click("text=Health");
    expect(await page.textContent("body")).toContain('"status":"ok"');
  });
});
