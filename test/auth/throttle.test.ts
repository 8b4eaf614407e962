import { afterEach, describe, expect, setSystemTime, test } from "bun:test";
import { TestService, standardAccounts, type TestResponse } from "../helpers";
import { expectedMinutes, texts, userRow } from "./support";

// decisions.md §6: failed logins and activations are throttled per username and per
// client address; while throttled every attempt answers 429, even with the right password.

let service: TestService;
afterEach(() => service?.close());

async function start(environment: Record<string, string>): Promise<TestService> {
  service = new TestService(environment);
  await service.importAccounts(standardAccounts);
  return service;
}

const login = (username: string, password: string) => service.request("POST", "/api/auth/login", { body: { username, password } });
const activate = (username: string, password: string) => service.request("POST", "/api/auth/activation", { body: { username, password } });

/** A 429 with the decisions §6 text, whose minutes agree with a positive Retry-After. */
function expectThrottled(response: TestResponse, windowSeconds: number) {
  expect(response.status).toBe(429);
  const retryAfter = response.headers.get("retry-after");
  expect(retryAfter).toMatch(/^\d+$/);
  const seconds = Number(retryAfter);
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(windowSeconds);
  expect(Object.keys(response.body)).toEqual(["error"]);
  expect(response.body.error).toMatch(/^Terlalu banyak percobaan\. Coba lagi dalam \d+ menit\.$/);
  expect(response.body.error).toBe(expectedMinutes(seconds));
}

function expectStatus(response: TestResponse, status: number, error?: string) {
  expect(response.status).toBe(status);
  if (error !== undefined) expect(response.body).toEqual({ error });
}

describe("per username", () => {
  test("after 3 failures the 4th attempt is 429 even with the right password", async () => {
    await start({ SKRINING_THROTTLE_USERNAME: "3" });
    for (let attempt = 0; attempt < 3; attempt++) expectStatus(await login("mhs1", `wrong-${attempt}`), 401, texts.badCredentials);
    expectThrottled(await login("mhs1", "mhs-pass-1"), 15 * 60);
    expectThrottled(await login("mhs1", "wrong-again"), 15 * 60);
    // The default window of 15 minutes: the wait is a quarter hour at most and close to it.
    const response = await login("mhs1", "mhs-pass-1");
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(15 * 60 - 30);
    expect(response.body).toEqual({ error: "Terlalu banyak percobaan. Coba lagi dalam 15 menit." });
    // A different username from the same address is not blocked.
    expectStatus(await login("mhs2", "mhs-pass-2"), 200);
    expectStatus(await login("admin", "wrong"), 401, texts.badCredentials);
  });

  test("2 failures do not block", async () => {
    await start({ SKRINING_THROTTLE_USERNAME: "3" });
    for (let attempt = 0; attempt < 2; attempt++) expectStatus(await login("mhs1", "wrong"), 401, texts.badCredentials);
    expectStatus(await login("mhs1", "mhs-pass-1"), 200);
  });

  test("the Retry-After header is exposed to browsers", async () => {
    await start({ SKRINING_THROTTLE_USERNAME: "1" });
    expectStatus(await login("mhs1", "wrong"), 401);
    const response = await service.request("POST", "/api/auth/login", {
      body: { username: "mhs1", password: "mhs-pass-1" },
      headers: { origin: "http://192.168.1.20:3000" },
    });
    expectThrottled(response, 15 * 60);
    expect(response.headers.get("access-control-expose-headers") ?? "").toMatch(/retry-after/i);
  });

  test("failures for a username padded with spaces count for the trimmed username", async () => {
    await start({ SKRINING_THROTTLE_USERNAME: "3" });
    for (const username of [" mhs1", "mhs1 ", "\tmhs1"]) expectStatus(await login(username, "wrong"), 401, texts.badCredentials);
    expectThrottled(await login("mhs1", "mhs-pass-1"), 15 * 60);
  });

  test("failures for an unknown username count too", async () => {
    await start({ SKRINING_THROTTLE_USERNAME: "2" });
    for (let attempt = 0; attempt < 2; attempt++) expectStatus(await login("ghost", "wrong"), 401, texts.badCredentials);
    expectThrottled(await login("ghost", "wrong"), 15 * 60);
  });

  test("a successful login clears that username's count", async () => {
    await start({ SKRINING_THROTTLE_USERNAME: "3" });
    const sequence: [password: string, status: number][] = [
      ["wrong-1", 401],
      ["wrong-2", 401],
      ["mhs-pass-1", 200],
      ["wrong-3", 401],
      ["wrong-4", 401],
      ["mhs-pass-1", 200],
      ["wrong-5", 401],
      ["wrong-6", 401],
      ["wrong-7", 401],
    ];
    for (const [password, status] of sequence) expectStatus(await login("mhs1", password), status);
    expectThrottled(await login("mhs1", "mhs-pass-1"), 15 * 60);
  });

  test("the window is configurable and failures leave it", async () => {
    await start({ SKRINING_THROTTLE_USERNAME: "2", SKRINING_THROTTLE_WINDOW: "1" });
    // The clock stands still, and is moved past the window instead of waiting for it.
    const now = Date.now();
    setSystemTime(now);
    try {
      for (let attempt = 0; attempt < 2; attempt++) expectStatus(await login("mhs1", "wrong"), 401);
      const blocked = await login("mhs1", "mhs-pass-1");
      expectThrottled(blocked, 1);
      expect(blocked.body).toEqual({ error: "Terlalu banyak percobaan. Coba lagi dalam 1 menit." });
      setSystemTime(now + 1100);
      expectStatus(await login("mhs1", "mhs-pass-1"), 200);
    } finally {
      setSystemTime();
    }
  });
});

describe("per client address", () => {
  test("5 failures spread over usernames block the address, not another address", async () => {
    await start({ SKRINING_THROTTLE_USERNAME: "100", SKRINING_THROTTLE_ADDRESS: "5" });
    service.address = "10.0.0.1";
    for (const username of ["admin", "dosen1", "mhs1", "mhs2", "ghost"]) expectStatus(await login(username, "wrong"), 401, texts.badCredentials);
    // Any username, right password or not, from that address.
    expectThrottled(await login("dosen2", "dosen-pass-2"), 15 * 60);
    expectThrottled(await login("mhs1", "mhs-pass-1"), 15 * 60);
    expectThrottled(await activate("mhs3", "mhs-pass-3"), 15 * 60);
    expect(userRow(service, "mhs3")!.is_activated).toBe(0);

    service.address = "10.0.0.2";
    expectStatus(await login("dosen2", "dosen-pass-2"), 200);
    expectStatus(await login("mhs1", "mhs-pass-1"), 200);

    // A success from elsewhere does not clear the blocked address.
    service.address = "10.0.0.1";
    expectThrottled(await login("dosen2", "dosen-pass-2"), 15 * 60);
  });

  test("4 failures from one address do not block it", async () => {
    await start({ SKRINING_THROTTLE_USERNAME: "100", SKRINING_THROTTLE_ADDRESS: "5" });
    for (const username of ["admin", "dosen1", "mhs1", "ghost"]) expectStatus(await login(username, "wrong"), 401);
    expectStatus(await login("mhs2", "mhs-pass-2"), 200);
  });

  test("the username limit applies across addresses", async () => {
    await start({ SKRINING_THROTTLE_USERNAME: "3", SKRINING_THROTTLE_ADDRESS: "100" });
    for (const address of ["10.0.0.1", "10.0.0.2", "10.0.0.3"]) {
      service.address = address;
      expectStatus(await login("mhs1", "wrong"), 401);
    }
    service.address = "10.0.0.4";
    expectThrottled(await login("mhs1", "mhs-pass-1"), 15 * 60);
  });
});

describe("activation", () => {
  test("activation failures are throttled, and the 4th activation with the right password is 429", async () => {
    await start({ SKRINING_THROTTLE_USERNAME: "3" });
    for (let attempt = 0; attempt < 3; attempt++) expectStatus(await activate("mhs3", "wrong"), 401, texts.wrongActivationPassword);
    expectThrottled(await activate("mhs3", "mhs-pass-3"), 15 * 60);
    expect(userRow(service, "mhs3")!.is_activated).toBe(0);
    // The count is shared with login.
    expectThrottled(await login("mhs3", "mhs-pass-3"), 15 * 60);
    // Another account activates normally.
    service.context.db.$client.query("UPDATE users SET is_activated = 0 WHERE username = 'mhs2'").run();
    expectStatus(await activate("mhs2", "mhs-pass-2"), 200);
  });

  test("failed logins throttle activation of the same username", async () => {
    await start({ SKRINING_THROTTLE_USERNAME: "3" });
    for (let attempt = 0; attempt < 3; attempt++) expectStatus(await login("mhs3", "wrong"), 401, texts.badCredentials);
    expectThrottled(await activate("mhs3", "mhs-pass-3"), 15 * 60);
    expect(userRow(service, "mhs3")!.is_activated).toBe(0);
  });

  test("unknown-account activations count against the address", async () => {
    await start({ SKRINING_THROTTLE_USERNAME: "100", SKRINING_THROTTLE_ADDRESS: "3" });
    for (const username of ["ghost1", "ghost2", "ghost3"]) expectStatus(await activate(username, "whatever"), 404, texts.unknownAccount);
    expectThrottled(await activate("mhs3", "mhs-pass-3"), 15 * 60);
    expect(userRow(service, "mhs3")!.is_activated).toBe(0);
  });
});

// decisions §10: an attempt is counted before its password is checked, so a burst sent at
// once is limited exactly like the same attempts sent one after another.
describe("parallel bursts", () => {
  const statuses = (responses: TestResponse[]) => {
    const counts: Record<number, number> = {};
    for (const response of responses) counts[response.status] = (counts[response.status] ?? 0) + 1;
    return counts;
  };

  test("40 guesses at one username sent at once: 10 are checked (401), 30 answer 429", async () => {
    await start({});
    const responses = await Promise.all(Array.from({ length: 40 }, (_, guess) => login("mhs1", `guess-${guess}`)));
    expect(statuses(responses)).toEqual({ 401: 10, 429: 30 });
    for (const response of responses.filter((each) => each.status === 429)) expectThrottled(response, 15 * 60);
    // The right password is refused too now, as after ten sequential failures.
    expectThrottled(await login("mhs1", "mhs-pass-1"), 15 * 60);
  });

  test("150 failures from one address sent at once: 100 are checked, 50 answer 429", async () => {
    await start({});
    // 150 different usernames, so that only the address limit (100) applies.
    const responses = await Promise.all(Array.from({ length: 150 }, (_, index) => login(`ghost${index}`, "wrong")));
    expect(statuses(responses)).toEqual({ 401: 100, 429: 50 });
  });

  test("a burst of right passwords is not held back: a success gives its attempt back", async () => {
    await start({ SKRINING_THROTTLE_USERNAME: "3" });
    const responses = await Promise.all(Array.from({ length: 12 }, () => login("mhs1", "mhs-pass-1")));
    // Each attempt is counted while its password is checked, so at most 3 run at once; the
    // others may meet the limit, but every checked one succeeds and none is left counted.
    expect(responses.every((response) => response.status === 200 || response.status === 429)).toBe(true);
    expect(responses.some((response) => response.status === 200)).toBe(true);
    expectStatus(await login("mhs1", "mhs-pass-1"), 200);
    for (let attempt = 0; attempt < 2; attempt++) expectStatus(await login("mhs1", "wrong"), 401);
    expectStatus(await login("mhs1", "mhs-pass-1"), 200);
  });
});

describe("over-long usernames (decisions §10)", () => {
  const long = "u".repeat(151);

  test("151 characters: the usual 401 of a wrong login, without any lookup or password check", async () => {
    await start({});
    // Even the name of an existing account padded to 151 characters is no account.
    expectStatus(await login(long, "whatever"), 401, texts.badCredentials);
    expectStatus(await activate(long, "whatever"), 404, texts.unknownAccount);
  });

  test("150 characters is still an ordinary username, counted per username as usual", async () => {
    await start({ SKRINING_THROTTLE_USERNAME: "2" });
    const name = "n".repeat(150);
    for (let attempt = 0; attempt < 2; attempt++) expectStatus(await login(name, "wrong"), 401);
    expectThrottled(await login(name, "wrong"), 15 * 60);
  });

  test("they count against the client address only", async () => {
    await start({ SKRINING_THROTTLE_USERNAME: "1", SKRINING_THROTTLE_ADDRESS: "3" });
    // Each failure would throttle its username after one; they are not counted per username.
    for (let attempt = 0; attempt < 3; attempt++) expectStatus(await login(long, "wrong"), 401, texts.badCredentials);
    expectThrottled(await login(long, "wrong"), 15 * 60);
    expectThrottled(await login("mhs1", "mhs-pass-1"), 15 * 60);
    service.address = "10.9.9.9";
    expectStatus(await login("mhs1", "mhs-pass-1"), 200);
  });
});

describe("a bounded number of remembered keys", () => {
  test("when the keys are full, the least recently counted username is forgotten", async () => {
    // Four keys: one address and three usernames at most.
    await start({ SKRINING_THROTTLE_USERNAME: "1", SKRINING_THROTTLE_KEYS: "4" });
    expectStatus(await login("mhs1", "wrong"), 401);
    expectThrottled(await login("mhs1", "mhs-pass-1"), 15 * 60);
    // Two more usernames still fit beside the address and mhs1.
    expectStatus(await login("ghost1", "wrong"), 401);
    expectStatus(await login("ghost2", "wrong"), 401);
    expectThrottled(await login("mhs1", "mhs-pass-1"), 15 * 60);
    // A fourth username needs room: mhs1's count, the oldest, is forgotten.
    expectStatus(await login("ghost3", "wrong"), 401);
    expectStatus(await login("mhs1", "mhs-pass-1"), 200);
  });
});
