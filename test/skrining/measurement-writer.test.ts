import { TestService } from "../helpers";
import { measurementCases } from "./measurement-cases";

// Decisions §20, submissions written on the writer thread, as the server writes them (src/modules/skrining/writer.ts).
measurementCases(async () => {
  const service = new TestService();
  await service.useSubmissionWriter();
  return service;
});
