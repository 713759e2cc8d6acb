/** Pieces of the hand-written OpenAPI schemas (the document is OpenAPI 3.0, as @nestjs/swagger writes it). */

/** A component of the document, by name. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A value that may also be null: 3.0 has no `type: 'null'`; a `$ref` takes no siblings there, so it is wrapped. */
export const nullable = (schema: object) => ('$ref' in schema ? { allOf: [schema], nullable: true } : { ...schema, nullable: true });
