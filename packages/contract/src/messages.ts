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
  // A closed object's stray key, at the body's root or below ("overWrite is not a field of this request.").
  if (issue.code === 'unrecognized_keys')
    return `${[...path, issue.keys[0]].join('.')} is not a field of this request.`;
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
      // An exact size (`.length(n)`) is neither a least nor a most.
      if (issue.exact) return undefined;
      const small = issue.code === 'too_small';
      const limit = String(small ? issue.minimum : issue.maximum);
      const unit = SIZED[issue.origin];
      if (unit)
        return `${field} must have ${small ? 'at least' : 'at most'} ${limit} ${unit}${limit === '1' ? '' : 's'}.`;
      if (issue.origin !== 'number' && issue.origin !== 'int' && issue.origin !== 'bigint') return undefined;
      const bound = issue.inclusive ? (small ? 'at least' : 'at most') : small ? 'greater than' : 'less than';
      return `${field} must be ${bound} ${limit}.`;
    }
    case 'invalid_value': {
      const values = issue.values.map((v) => (typeof v === 'bigint' ? String(v) : JSON.stringify(v)));
      if (values.some((v) => v === undefined)) return undefined;
      return values.length === 1 ? `${field} must be ${values[0]}.` : `${field} must be one of ${values.join(', ')}.`;
    }
    default:
      return undefined;
  }
}

/** A field's name and its message, said once: the words above already start with the name. */
export function withField(field: string, message: string, separator = ': '): string {
  return message.startsWith(`${field} `) ? message : `${field}${separator}${message}`;
}

// Every schema of the contract (and any other zod schema in the same process) words its unworded checks so.
z.config({ customError: plainIssueMessage });
