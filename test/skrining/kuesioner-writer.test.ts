import { TestService } from "../helpers";
import { questionnaireCases } from "./questionnaire-cases";

// Submissions written on the writer thread, as the server writes them (src/modules/skrining/writer.ts).
questionnaireCases(async () => {
  const service = new TestService();
  await service.useSubmissionWriter();
  return service;
}, false);
