/** A start that cannot go on for a reason the operator can fix: printed as its message alone, no stack. */
export class StartError extends Error {}
