// The CLI's failure kinds live with the services' (one class each, so `instanceof` holds across both).
export { InputError, UsageError } from "#services/shared/cliErrors.ts";
