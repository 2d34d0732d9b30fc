import { z } from 'zod';

/** What a value must be, for zod's `expected` of a type check. */
const KINDS: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  string: 'text',
  boolean: 'true or false',
  object: 'a JSON object',
  record: 'a JSON object',
  array: 'a list',
};

const SIZED: Record<string, string> = { string: 'character', array: 'item', set: 'item' };

/**
 * A check a schema gave no words of its own is worded here, naming the field ("count must be a whole
 * number.", "keys.0 must be text."), not in zod's terms ("Invalid input: expected int"). Only the
 * checks a person can act on from the field's name; the rest keep zod's own message.
 */
export function plainIssueMessage(issue: z.core.$ZodRawIssue): string | undefined {
  const path = issue.path ?? [];
  if (path.length === 0) return undefined;
  const field = path.join('.');
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return `${field} is required.`;
      const kind = KINDS[issue.expected];
      return kind && `${field} must be ${kind}.`;
    }
    case 'too_small':
    case 'too_big': {
      const small = issue.code === 'too_small';
      const limit = String(small ? issue.minimum : issue.maximum);
      const unit = SIZED[issue.origin];
      if (unit)
        return `${field} must have ${small ? 'at least' : 'at most'} ${limit} ${unit}${limit === '1' ? '' : 's'}.`;
      if (issue.origin !== 'number' && issue.origin !== 'int' && issue.origin !== 'bigint') return undefined;
      const bound = issue.inclusive ? (small ? 'at least' : 'at most') : small ? 'greater than' : 'less than';
      return `${field} must be ${bound} ${limit}.`;
    }
    case 'invalid_value':
      return `${field} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}.`;
    default:
      return undefined;
  }
}

// Every schema of the contract (and any other zod schema in the same process) words its unworded checks so.
z.config({ customError: plainIssueMessage });
