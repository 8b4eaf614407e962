import { loadConfig } from "./src/config";
import { createContext } from "./src/context";
import { createApp } from "./src/app";
import { users } from "./src/db/schema";
import { hashPassword } from "./src/accounts/passwords";
const ctx = createContext(loadConfig("/tmp/sk1", { SKRINING_BCRYPT_COST: "4" }));
ctx.db.insert(users).values({ username: "admin", passwordHash: await hashPassword("adminpass1", 4), role: "admin", isActivated: true }).onConflictDoNothing().run();
const app = createApp(ctx);
const go = async (m: string, p: string, body?: unknown, h: Record<string, string> = {}) => {
  const r = await app.handle(new Request("http://localhost" + p, { method: m, body: body === undefined ? undefined : JSON.stringify(body), headers: { "content-type": "application/json", ...h } }));
  const t = await r.text(); console.log(m, p, r.status, t.slice(0, 300)); try { return JSON.parse(t); } catch { return t; }
};
const l = await go("POST", "/api/auth/login", { username: " admin ", password: "adminpass1" });
await go("GET", "/api/auth/me", undefined, { authorization: "Bearer " + l.access_token });
await go("GET", "/api/auth/me", undefined, { authorization: "Bearer " + l.refresh_token });
await go("POST", "/api/auth/refresh", undefined, { authorization: "Bearer " + l.refresh_token });
await go("POST", "/api/auth/login", { username: "admin", password: "x" });
await go("POST", "/api/auth/login", {});
await go("GET", "/api/auth/login");
await go("GET", "/api/nope");
await go("POST", "/api/auth/register", {});
await go("POST", "/api/auth/logout", undefined, { authorization: "Bearer " + l.access_token });
await go("GET", "/api/auth/me", undefined, { authorization: "Bearer " + l.access_token });
await go("GET", "/openapi/json");
