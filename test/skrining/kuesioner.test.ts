import { TestService } from "../helpers";
import { questionnaireCases } from "./questionnaire-cases";

// Submissions written on the service's own thread (every process but the server).
questionnaireCases(async () => new TestService(), true);
