import { TestService } from "../helpers";
import { measurementCases } from "./measurement-cases";

// Decisions §20 through the questionnaire's route.
measurementCases(async () => new TestService());
