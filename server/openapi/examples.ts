type JsonSchema = { [key: string]: unknown };

const REF_PREFIX = '#/components/schemas/';
/** Deeper than any body of the contract; a schema that refers to itself stops here. */
const MAX_DEPTH = 8;
const FIXED_TIME = '2026-01-15T09:30:00.000Z';

/** Text that fits a string schema's format and length. */
function exampleText(schema: JsonSchema): string {
  switch (schema.format) {
    case 'email':
      return 'alex@example.com';
    case 'uuid':
      return '3f2b8c1e-6d4a-4f6b-9a7e-2c5d8e1f0a9b';
    case 'date-time':
      return FIXED_TIME;
    case 'date':
      return FIXED_TIME.slice(0, 10);
    case 'uri':
    case 'url':
      return 'https://example.com/';
    default: {
      const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
      const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
      const text = 'text'.padEnd(minLength, 'x');
      return text.slice(0, Math.max(minLength, Math.min(text.length, maxLength)));
    }
  }
}

/**
 * An example value of a JSON Schema of the document, made from the schema alone (so that it fits it): the first enum
 * value or constant, the format's usual form, the smallest allowed number. A pattern the generator cannot satisfy
 * (a phone number, a code) leaves the schema without an example rather than with a wrong one.
 */
export function exampleOf(schema: JsonSchema, components: Record<string, JsonSchema>, depth = 0): unknown {
  if (depth > MAX_DEPTH) return undefined;
  if (typeof schema.$ref === 'string') {
    const target = components[schema.$ref.slice(REF_PREFIX.length)];
    return target ? exampleOf(target, components, depth + 1) : undefined;
  }
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const options = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (options) {
    for (const option of options) {
      const example = exampleOf(option, components, depth + 1);
      if (example !== undefined) return example;
    }
    return undefined;
  }
  const type = Array.isArray(schema.type) ? schema.type.find((kind) => kind !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const example: Record<string, unknown> = {};
      const required = new Set((schema.required as string[] | undefined) ?? []);
      for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
        const value = exampleOf(property, components, depth + 1);
        if (value === undefined && required.has(name)) return undefined;
        if (value !== undefined) example[name] = value;
      }
      return example;
    }
    case 'array': {
      const item = schema.items ? exampleOf(schema.items as JsonSchema, components, depth + 1) : undefined;
      const minItems = typeof schema.minItems === 'number' ? schema.minItems : 0;
      if (item === undefined) return minItems === 0 ? [] : undefined;
      return Array.from({ length: Math.max(1, minItems) }, () => item);
    }
    case 'string':
      return typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(exampleText(schema)) ? undefined : exampleText(schema);
    case 'integer':
    case 'number': {
      const minimum = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 1;
      return Math.max(minimum, 1) <= (typeof schema.maximum === 'number' ? schema.maximum : Infinity) ? Math.max(minimum, 1) : minimum;
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return undefined;
  }
}
