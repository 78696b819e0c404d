// Every refusal the CSE can give, as the (HTTP status, oneM2M response status code) pair clients see.

/** oneM2M response status codes (X-M2M-RSC) this CSE answers with. */
export const RSC = {
  OK: 2000,
  CREATED: 2001,
  DELETED: 2002,
  UPDATED: 2004,
  BAD_REQUEST: 4000,
  RELEASE_VERSION_NOT_SUPPORTED: 4001,
  NOT_FOUND: 4004,
  OPERATION_NOT_ALLOWED: 4005,
  NO_PRIVILEGE: 4103,
  CONFLICT: 4105,
  ALREADY_EXISTS_MOBIUS: 4106,
  SECURITY_ASSOCIATION_REQUIRED: 4107,
  INVALID_CHILD_RESOURCE_TYPE: 4108,
  ORIGINATOR_ALREADY_REGISTERED: 4117,
  AE_ORIGINATOR_NOT_ALLOWED: 4126,
  INTERNAL_SERVER_ERROR: 5000,
  NOT_IMPLEMENTED: 5001,
  SUBSCRIPTION_VERIFICATION_FAILED: 5204,
  NOT_ACCEPTABLE: 5207,
} as const;

export type Rsc = (typeof RSC)[keyof typeof RSC];

/** A request the CSE refuses; the message becomes the `m2m:dbg` body. */
export class CseError extends Error {
  override readonly name = "CseError";
  constructor(
    readonly status: number,
    readonly rsc: Rsc,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (msg: string) => new CseError(400, RSC.BAD_REQUEST, msg);
export const notFound = (msg: string) => new CseError(404, RSC.NOT_FOUND, msg);
export const notAllowed = (msg: string, status = 405) => new CseError(status, RSC.OPERATION_NOT_ALLOWED, msg);
export const noPrivilege = (msg: string) => new CseError(403, RSC.NO_PRIVILEGE, msg);
export const conflict = (msg: string) => new CseError(409, RSC.CONFLICT, msg);
export const notAcceptable = (msg: string) => new CseError(406, RSC.NOT_ACCEPTABLE, msg);

/** Thrown at start-up for options or a data directory the CSE cannot run with. */
export class CseConfigError extends Error {
  override readonly name = "CseConfigError";
}
