import { notFound } from "../../errors";
import type { Principal } from "../../http/principal";
import { documentMessages, type StudentDataDocuments } from "../../privacy/document";

/** A student's own data document; the route lets only students in. */
export class DataSayaService {
  constructor(private readonly documents: StudentDataDocuments) {}

  /** A student account without a profile has no data to give: 404, as the other own-profile routes. */
  own(principal: Principal) {
    if (principal.nim === null) throw notFound(documentMessages.studentUnknown);
    return this.documents.of(principal.nim);
  }
}
