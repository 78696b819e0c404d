// Bad input to the budget: every problem with the path of the field it belongs to and a sentence for people.

export interface BudgetIssue {
  /** "device.batteryMah", "bytesOnAir", "radio.txMa" — where the UI shows the message */
  path: string;
  message: string;
}

export class BudgetError extends Error {
  override readonly name = "BudgetError";
  constructor(readonly issues: BudgetIssue[]) {
    super(issues.map((i) => i.message).join("; "));
  }
}
