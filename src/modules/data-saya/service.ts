import { notFound } from "../../errors";
import type { Principal } from "../../requests/principal";
import { RateLimit } from "../../requests/rate-limit";
import { documentMessages, type StudentDataDocuments } from "./document";
import { jsonPieces, streamedJson } from "./streamed-json";

/**
 * A student's own data document; the route lets only students in. It is the largest
 * answer the service gives (a diary at its quota, years of accesses), so it is limited per
 * account and written out in pieces, other requests answered between them.
 */
export class DataSayaService {
  private readonly limit: RateLimit<number>;

  constructor(
    private readonly documents: StudentDataDocuments,
    perMinute: number,
  ) {
    this.limit = new RateLimit(perMinute);
  }

  /** A student account without a profile has no data to give: 404, as the other own-profile routes. */
  own(principal: Principal): Response {
    this.limit.take(principal.id);
    if (principal.nim === null) throw notFound(documentMessages.studentUnknown);
    return streamedJson(jsonPieces(this.documents.of(principal.nim)));
  }
}
