/** Answers made by `sharedAnswer`: frozen through and through, so that what is made of them may be kept. */
const shared = new WeakSet<object>();

/**
 * Freezes an answer and all it holds, and marks it as shared: the same object answers every call
 * until what it shows changes (a top page), and a route's writer writes it once (http/serializer.ts).
 */
export function sharedAnswer<T extends object>(answer: T): T {
  shared.add(deepFreeze(answer));
  return answer;
}

export function isSharedAnswer(value: object): boolean {
  return shared.has(value);
}

/** Into frozen objects too: one frozen by someone else may still hold objects that are not. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
