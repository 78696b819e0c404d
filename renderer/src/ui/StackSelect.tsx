// The transport stack of one platform: a select on an IP link, a plain statement on a modem link (it has only one).
import { defaultStack, type Platform, type StackId, stackName, stacksFor } from "#planning";

export function StackSelect({
  platform,
  value,
  onChange,
  testId,
}: {
  platform: Platform;
  value: StackId;
  onChange(stack: StackId): void;
  testId: string;
}) {
  const stacks = stacksFor(platform);
  if (stacks.length === 1)
    return (
      <span
        className="muted"
        data-testid={testId}
        data-value={value}
        title="The modem takes the payload itself; the operator frames it and counts payload bytes"
      >
        {stackName(platform, value)}
      </span>
    );
  const fallback = defaultStack(platform);
  return (
    <select
      className="select"
      value={value}
      data-testid={testId}
      aria-label={`Transport stack on ${platform.name}`}
      onChange={(e) => onChange(e.target.value as StackId)}
    >
      {stacks.map((s) => (
        <option key={s} value={s}>
          {stackName(platform, s)}
          {s === fallback ? " · default" : ""}
        </option>
      ))}
    </select>
  );
}
