import { Elysia } from "elysia";
import type { JsonObject } from "../../http/body";
import { ErrorResponse, MessageResponse, bearer, errorResponses } from "../../http/documentation";
import { access, type RouteGuards } from "../../http/guards";
import { ActivationResponse, CredentialsBody, LoginResponse, PasswordChangeBody, UserResponse } from "./model";
import { serializeUser, type AuthService } from "./service";

/** The address a throttle counts failures by; `server` is absent under `app.handle()`. */
type ClientAddress = (request: Request) => string;

export const authController = (guards: RouteGuards, auth: AuthService, clientAddress: ClientAddress) =>
  new Elysia({ prefix: "/api/auth", tags: ["auth"] })
    .use(guards)
    .post("/login", ({ body, request }) => auth.login(body as JsonObject, clientAddress(request)), {
      body: CredentialsBody,
      response: { 200: LoginResponse, ...errorResponses },
      detail: { summary: "Log in; returns an access and a refresh token" },
    })
    .post("/refresh", ({ principal, claims }) => auth.refresh(principal, claims), {
      refreshToken: true,
      detail: { summary: "A new access token from a refresh token", security: bearer },
    })
    .post("/logout", ({ claims }) => auth.logout(claims), {
      access: access.any,
      response: { 200: MessageResponse, ...errorResponses },
      detail: { summary: "End the session of the presented token", security: bearer },
    })
    .get("/me", ({ principal }) => serializeUser(principal), {
      access: access.any,
      response: { 200: UserResponse, ...errorResponses },
      detail: { summary: "The current user", security: bearer },
    })
    .post("/activation", ({ body, request }) => auth.activate(body as JsonObject, clientAddress(request)), {
      body: CredentialsBody,
      response: { 200: ActivationResponse, ...errorResponses, 500: ErrorResponse },
      detail: { summary: "Activate a pre-created account once" },
    })
    .post("/password", ({ principal, body, request }) => auth.changePassword(principal, body as JsonObject, clientAddress(request)), {
      access: access.any,
      body: PasswordChangeBody,
      response: { 200: MessageResponse, ...errorResponses },
      detail: { summary: "Change one's own password; ends every session", security: bearer },
    });
