import { Elysia } from "elysia";
import type { JsonObject } from "../../requests/values";
import { MessageResponse, bearer, jsonBody, reading, refusal, refusals, writing } from "../../http/documentation";
import { access, type RouteGuards } from "../../http/guards";
import { cachedJson } from "../../http/json-answer";
import type { Principal } from "../../requests/principal";
import { ActivationBody, ActivationResponse, CredentialsBody, LoginResponse, PasswordChangeBody, RefreshResponse } from "./model";
import { UserResponse, serializeUser, type SerializedUser } from "../../auth/user";
import type { AuthService, RequestOrigin } from "../../auth/service";
import type { AppContext } from "../../context";

// The caller's answer is kept with the caller (the same object from the read cache until
// an account changes), and sent as the text made the first time.
const userAnswer = cachedJson(UserResponse);
const serializedUsers = new WeakMap<Principal, SerializedUser>();

function serializedUser(principal: Principal): SerializedUser {
  let user = serializedUsers.get(principal);
  if (user === undefined) {
    user = serializeUser(principal);
    serializedUsers.set(principal, user);
  }
  return user;
}

/** The address a throttle counts failures by; `server` is absent under `app.handle()`. */
type ClientAddress = (request: Request) => string;

/**
 * Login, activation and password changes write their own audit rows (`login`,
 * `login_failed`, `activate`, `password`): the service knows which account was meant and
 * writes the row with the change.
 */
export function authModule(core: AppContext, guards: RouteGuards, clientAddress: ClientAddress) {
  return authRoutes(guards, core.auth, clientAddress);
}

const authRoutes = (guards: RouteGuards, auth: AuthService, clientAddress: ClientAddress) => {
  const origin = (request: Request, route: string): RequestOrigin => ({ address: clientAddress(request), target: `${request.method} ${route}` });
  return new Elysia({ prefix: "/api/auth", tags: ["auth"] })
    .use(guards)
    .post("/login", ({ body, request, route }) => auth.login(body as JsonObject, origin(request, route)), {
      response: {
        200: LoginResponse,
        ...refusals(
          { status: 400, when: "`username` or `password` is empty" },
          { status: 401, when: "unknown username or wrong password (one text for both); a one-time password past its end (its own text, decisions §21)" },
          { status: 403, when: "the account is not activated yet" },
          refusal.bodyTooLarge,
          refusal.loginThrottle,
          writing,
        ),
      },
      detail: { summary: "Log in; returns an access and a refresh token", requestBody: jsonBody(CredentialsBody) },
    })
    .post("/refresh", ({ principal, claims }) => auth.refresh(principal, claims), {
      refreshToken: true,
      response: { 200: RefreshResponse, ...refusals({ status: 401, when: "no refresh token, or one that is invalid, expired or of an ended session" }, reading) },
      detail: { summary: "A new access token from a refresh token", security: bearer },
    })
    .post("/logout", ({ claims }) => auth.logout(claims), {
      access: access.ownSignIn,
      response: { 200: MessageResponse, ...refusals(refusal.accessToken, writing) },
      detail: { summary: "End the session of the presented token", security: bearer },
    })
    .get("/me", ({ principal, set }) => {
      // Decisions §19: a student whose advisor changed is told for 14 days (a rare answer, made each time).
      const change = principal.role === "mahasiswa" && principal.nim !== null ? auth.advisorChanges.noticeFor(principal.nim, Date.now()) : null;
      return change ? { ...serializedUser(principal), pergantian_dosen_wali: change } : userAnswer(serializedUser(principal), set);
    }, {
      access: access.ownSignIn,
      response: { 200: UserResponse, ...refusals(refusal.accessToken, reading) },
      detail: { summary: "The current user", security: bearer },
    })
    .post("/activation", ({ body, request, route }) => auth.activate(body as JsonObject, origin(request, route)), {
      response: {
        200: ActivationResponse,
        ...refusals(
          { status: 400, when: "`username` or `password` is empty, or the account is already activated, or `password_baru` breaks the password rule or repeats the initial one (nothing is activated)" },
          { status: 401, when: "wrong password; a one-time password past its end (decisions §21)" },
          { status: 404, when: "unknown username" },
          refusal.bodyTooLarge,
          refusal.loginThrottle,
          { status: 500, when: "an unexpected failure; nothing is changed and `error` starts with `Terjadi kesalahan:`" },
          writing,
        ),
      },
      detail: { summary: "Activate a pre-created account once, optionally setting one's own password", requestBody: jsonBody(ActivationBody) },
    })
    .post("/password", ({ principal, body, request, route }) => auth.changePassword(principal, body as JsonObject, origin(request, route)), {
      access: access.ownSignIn,
      response: {
        200: MessageResponse,
        ...refusals(
          { status: 400, when: "a password is missing, or the new one breaks the password rule or repeats the old one" },
          refusal.accessToken,
          { status: 401, when: "wrong old password, or a one-time password past its end (decisions §21)" },
          refusal.bodyTooLarge,
          refusal.loginThrottle,
          writing,
        ),
      },
      detail: { summary: "Change one's own password; ends every session", security: bearer, requestBody: jsonBody(PasswordChangeBody) },
    });
};
