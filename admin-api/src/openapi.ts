import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';

/**
 * OpenAPI at /api/docs (JSON at /api/docs-json), generated from the controllers; request body
 * schemas come from the class-validator rules the API actually enforces.
 */
export function setupOpenApi(app: INestApplication) {
  const config = new DocumentBuilder()
    .setTitle('Portfolio API')
    .setDescription(
      'Content API of the author portfolio. Errors are JSON {statusCode, message, errors?}. Admin routes need `Authorization: Bearer <sessionId>` from POST /api/admin/login.',
    )
    .setVersion('1.0')
    .addBearerAuth()
    .build();
  // Built on the first request for the docs, not at start: most processes never serve them.
  let document: OpenAPIObject | undefined;
  const build = () => {
    if (document) return document;
    document = SwaggerModule.createDocument(app, config);
    const schemas = validationMetadatasToSchemas({ refPointerPrefix: '#/components/schemas/' });
    document.components = { ...document.components, schemas: { ...(document.components?.schemas ?? {}), ...(schemas as object) } };
    return document;
  };
  SwaggerModule.setup('api/docs', app, build, { jsonDocumentUrl: 'api/docs-json', useGlobalPrefix: false });
}
