// Checks JSON values against TypeScript types with the compiler itself: each value becomes an object
// literal assigned to its declared type, so a missing required field, a wrong type or an unknown
// (renamed) field is a type error. Used for gateway payloads against discord-api-types.
import path from 'node:path';
import ts from 'typescript';

/** One value to check: the type's name as exported by `module`, and the value as it went over the wire. */
export interface ShapeCase {
  label: string;
  type: string;
  value: unknown;
}

/**
 * What a payload looks like on the wire: string enums are their string values, numbers (numeric
 * enums and bit fields) any number, every object and array followed inside.
 */
const WIRE_TYPE = `
type Wire<T> =
  T extends string ? (string extends T ? string : \`\${T}\`) :
  T extends number ? number :
  T extends boolean | null | undefined ? T :
  T extends readonly (infer U)[] ? Wire<U>[] :
  T extends object ? { [K in keyof T]: Wire<T[K]> } :
  T;
`;

/** Type-checks each case against `module`'s exported types; returns one message per problem (empty when all conform). */
export function checkShapes(module: string, cases: ShapeCase[]): string[] {
  const root = process.cwd();
  const fileName = path.join(root, 'test', '__shapes__.ts');
  const types = [...new Set(cases.map((c) => c.type))];
  const source = [
    `import type { ${types.join(', ')} } from '${module}';`,
    WIRE_TYPE,
    ...cases.map((c, i) => `// ${c.label.replace(/\n/g, ' ')}\nexport const case${i}: Wire<${c.type}> = ${JSON.stringify(c.value, null, 1)};`),
  ].join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    exactOptionalPropertyTypes: false,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => (path.resolve(name) === fileName ? source : readFile(name));
  host.fileExists = (
    (exists) => (name: string) =>
      path.resolve(name) === fileName || exists(name)
  )(host.fileExists.bind(host));
  host.getSourceFile = (name, language, onError, create) =>
    path.resolve(name) === fileName ? ts.createSourceFile(name, source, language, true) : getSourceFile(name, language, onError, create);
  const program = ts.createProgram([fileName], options, host);
  const file = program.getSourceFile(fileName);
  if (!file) throw new Error('the shape file was not compiled');
  return [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)].map((diagnostic) => {
    const { line } = diagnostic.start === undefined ? { line: 0 } : file.getLineAndCharacterOfPosition(diagnostic.start);
    const caseLine =
      source
        .split('\n')
        .slice(0, line + 1)
        .reverse()
        .find((l) => l.startsWith('// ')) ?? '';
    return `${caseLine.slice(3)}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  });
}
