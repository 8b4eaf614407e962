import { TestService } from "../helpers";
import { questionnaireCases } from "./questionnaire-cases";

questionnaireCases(async () => new TestService());
