// The package's own types declare a module named 'domino'; only its parser is used here (see html-text.ts).
declare module '@mixmark-io/domino' {
  export function createDocument(html?: string, force?: boolean): unknown;
}
