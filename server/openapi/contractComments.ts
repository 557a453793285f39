import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Node, SourceFile } from 'typescript';

/**
 * The doc comments of the contract (src/contract/*.ts), read from its source: the OpenAPI document's descriptions are
 * the contract's own words, and the schemas the browser loads carry no copy of them. Keyed by export name
 * (`requestResponse`) and by export name and property path (`createMessageRequest.message.body`).
 */
export type ContractComments = Map<string, string>;

const CONTRACT_DIR = join(import.meta.dirname, '../../src/contract');

/** The committed copy of the document (`npm run openapi` writes it; a server test fails when it is out of date). */
export const COMMITTED_DOCUMENT = join(import.meta.dirname, '../../docs/openapi.json');

/**
 * The contract's comments, or null where TypeScript is not installed (a production install without dev
 * dependencies): the server then answers with the committed document, which the tests keep equal to a fresh one.
 */
export async function contractCommentsIfReadable(): Promise<ContractComments | null> {
  try {
    return await readContractComments();
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND') return null;
    throw error;
  }
}

/** zod's object builders, whose object-literal argument is the shape whose keys are the properties. */
const SHAPE_BUILDERS = new Set(['object', 'looseObject', 'strictObject', 'extend', 'partial']);

/** Reads every contract module. TypeScript (a dev dependency) is loaded here only, when a document is first asked for. */
export async function readContractComments(): Promise<ContractComments> {
  const { default: ts } = await import('typescript');
  const comments: ContractComments = new Map();

  /** The text of the last doc comment right before the node, without its stars. */
  function docOf(node: Node, source: SourceFile): string | null {
    const ranges = ts.getLeadingCommentRanges(source.text, node.getFullStart()) ?? [];
    const doc = ranges.filter((range) => source.text.startsWith('/**', range.pos)).at(-1);
    if (!doc) return null;
    const text = source.text
      .slice(doc.pos + 3, doc.end - 2)
      .split('\n')
      .map((line) => line.replace(/^\s*\* ?/, '').trim())
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    return text || null;
  }

  /** Records the comments of the properties of every shape inside `node`, under `path`. */
  function walkShapes(node: Node, path: string, source: SourceFile) {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && SHAPE_BUILDERS.has(node.expression.name.text)) {
      for (const argument of node.arguments) {
        if (!ts.isObjectLiteralExpression(argument)) {
          walkShapes(argument, path, source);
          continue;
        }
        for (const property of argument.properties) {
          if (!ts.isPropertyAssignment(property) || !property.name) continue;
          const key = ts.isIdentifier(property.name) || ts.isStringLiteral(property.name) ? property.name.text : null;
          if (key === null) continue;
          const doc = docOf(property, source);
          if (doc) comments.set(`${path}.${key}`, doc);
          walkShapes(property.initializer, `${path}.${key}`, source);
        }
      }
      return;
    }
    ts.forEachChild(node, (child) => walkShapes(child, path, source));
  }

  for (const file of readdirSync(CONTRACT_DIR).filter((name) => name.endsWith('.ts'))) {
    const source = ts.createSourceFile(file, readFileSync(join(CONTRACT_DIR, file), 'utf8'), ts.ScriptTarget.Latest, true);
    for (const statement of source.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      if (!statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) continue;
      for (const declaration of statement.declarationList.declarations) {
        if (!ts.isIdentifier(declaration.name) || !declaration.initializer) continue;
        const name = declaration.name.text;
        const doc = docOf(statement, source);
        if (doc) comments.set(name, doc);
        walkShapes(declaration.initializer, name, source);
      }
    }
  }
  return comments;
}
