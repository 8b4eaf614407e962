import { t } from "elysia";

// Pieces every controller's OpenAPI description shares.

/** Every error body: `{"error": ...}`; the weekly limit adds keys of its own. */
export const ErrorResponse = t.Object({ error: t.String() }, { additionalProperties: true });

export const MessageResponse = t.Object({ message: t.String() });

/** The routes that need a token say so in the OpenAPI document. */
export const bearer = [{ bearer: [] }];

/** The error answers any route with a token may give: refused input, token, role, unknown id, fair use, storage. */
export const errorResponses = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  429: ErrorResponse,
  503: ErrorResponse,
  507: ErrorResponse,
};

/**
 * A field of a request body as the OpenAPI document describes it. Bodies are read
 * leniently (anything that is not a JSON object is `{}`) and checked by the service with
 * the interface's exact texts and order, so the schema accepts any value.
 */
export const bodyField = (description: string) => t.Optional(t.Any({ description }));
