// The OpenAPI document as far as the page reads it (3.0 and 3.1), and how a local `$ref` in it is followed.

export type Schema = Record<string, any>;

export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  deprecated?: boolean;
  description?: string;
  schema?: Schema;
}

export interface MediaTypes {
  [mediaType: string]: { schema?: Schema } | undefined;
}

export interface Operation {
  tags?: string[];
  summary?: string;
  description?: string;
  operationId?: string;
  deprecated?: boolean;
  parameters?: (Parameter | Reference)[];
  requestBody?: { description?: string; required?: boolean; content?: MediaTypes } | Reference;
  responses?: Record<string, { description?: string; content?: MediaTypes } | Reference>;
  security?: Record<string, string[]>[];
}

export interface Reference {
  $ref: string;
}

export interface OpenApiDocument {
  openapi?: string;
  info?: { title?: string; version?: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths?: Record<string, Record<string, Operation | Parameter[] | string | undefined> | undefined>;
  components?: {
    schemas?: Record<string, Schema>;
    securitySchemes?: Record<string, { type?: string; scheme?: string; bearerFormat?: string; name?: string; in?: string; description?: string }>;
    [section: string]: Record<string, any> | undefined;
  };
  security?: Record<string, string[]>[];
}

export const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** Follows a local `$ref` (`#/components/...`) to what it names, at most a few times. */
export function resolve<T>(document: OpenApiDocument, value: T | Reference | undefined): T | undefined {
  let current: unknown = value;
  for (let hops = 0; hops < 8 && current && typeof current === "object" && "$ref" in current; hops++) {
    const ref = (current as Reference).$ref;
    if (typeof ref !== "string" || !ref.startsWith("#/")) return undefined;
    current = ref
      .slice(2)
      .split("/")
      .map(pointerToken)
      .reduce<any>((node, part) => (node && typeof node === "object" ? node[part] : undefined), document);
  }
  return current && typeof current === "object" && !("$ref" in current) ? (current as T) : undefined;
}

/** One segment of a JSON pointer, unescaped. */
export function pointerToken(part: string): string {
  return part.replace(/~1/g, "/").replace(/~0/g, "~");
}
