import { TestService } from "../helpers";
import { measurementCases } from "./measurement-cases";

// Decisions §20, submissions written on the service's own thread (as the CLI and app.handle() write them).
measurementCases(async () => new TestService());
