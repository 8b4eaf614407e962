import { Elysia } from "elysia";
import { authGuard, access } from "../../http/guards";
import type { JsonObject } from "../../http/body";
import { ActivationResponse, CredentialsBody, ErrorResponse, LoginResponse, MessageResponse, PasswordChangeBody, UserResponse } from "./model";
import { serializeUser, type AuthService } from "./service";

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 429: ErrorResponse };

/** The address a throttle counts failures by; `server` is absent under `app.handle()`. */
type ClientAddress = (request: Request) => string;

export const authController = (auth: AuthService, clientAddress: ClientAddress) =>
  new Elysia({ prefix: "/api/auth", tags: ["auth"] })
    .use(authGuard(auth))
    .post("/login", ({ body, request }) => auth.login(body as JsonObject, clientAddress(request)), {
      body: CredentialsBody,
      response: { 200: LoginResponse, ...errors },
      detail: { summary: "Log in; returns an access and a refresh token" },
    })
    .post("/refresh", ({ principal, claims }) => auth.refresh(principal, claims), {
      refreshToken: true,
      detail: { summary: "A new access token from a refresh token", security: [{ bearer: [] }] },
    })
    .post("/logout", ({ claims }) => auth.logout(claims), {
      access: access.any,
      response: { 200: MessageResponse, 401: ErrorResponse },
      detail: { summary: "Revoke the presented access token", security: [{ bearer: [] }] },
    })
    .get("/me", ({ principal }) => serializeUser(principal), {
      access: access.any,
      response: { 200: UserResponse, 401: ErrorResponse },
      detail: { summary: "The current user", security: [{ bearer: [] }] },
    })
    .post("/activation", ({ body, request }) => auth.activate(body as JsonObject, clientAddress(request)), {
      body: CredentialsBody,
      response: { 200: ActivationResponse, ...errors, 500: ErrorResponse },
      detail: { summary: "Activate a pre-created account once" },
    })
    .post("/password", ({ principal, body, request }) => auth.changePassword(principal, body as JsonObject, clientAddress(request)), {
      access: access.any,
      body: PasswordChangeBody,
      response: { 200: MessageResponse, ...errors },
      detail: { summary: "Change one's own password; ends every older token", security: [{ bearer: [] }] },
    });
