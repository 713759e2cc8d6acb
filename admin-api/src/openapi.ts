import { createRequire } from 'node:module';

import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { MESSAGES } from '@portfolio/contract/messages';
import { SECURITY_HEADERS } from '@portfolio/contract/security-headers';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import type { NextFunction, Request, Response } from 'express';

import { documentTwoFactor, TWO_FACTOR_SCHEMAS } from './auth/two-factor.openapi.js';
import { nullable, ref } from './common/openapi-schema.js';
import { IMAGE_VARIANTS_SCHEMAS } from './image-variants/image-variants.controller.js';
import { IMPORT_SCHEMAS } from './import/imports.openapi.js';
import { NEWSLETTER_SCHEMAS } from './newsletter/newsletter.openapi.js';
import { REVISION_SCHEMAS } from './revisions/revisions.openapi.js';
import { SETTINGS_SCHEMAS } from './settings/settings.openapi.js';

const messageParams = {
  type: 'object',
  description: 'Values of the placeholders of the message: numbers, strings, or a MessageRef (a field label), translated too.',
  additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }, ref('MessageRef')] },
};

/** The error body of every route, with the keys of its messages in @portfolio/contract/messages. */
const ERROR_SCHEMAS = {
  MessageKey: { type: 'string', enum: Object.keys(MESSAGES) },
  MessageRef: {
    type: 'object',
    required: ['key'],
    properties: { key: ref('MessageKey'), params: messageParams },
  },
  ErrorBody: {
    type: 'object',
    required: ['statusCode', 'message'],
    properties: {
      statusCode: { type: 'integer' },
      message: { type: 'string', description: 'What went wrong, in English.' },
      errors: { type: 'object', additionalProperties: { type: 'string' }, description: 'Field name → its problem, in English.' },
      messageKey: { allOf: [ref('MessageKey')], description: 'The key of `message`; absent when the message has none.' },
      messageParams,
      errorKeys: {
        type: 'object',
        additionalProperties: ref('MessageRef'),
        description: 'Field name → the key of its problem in `errors`.',
      },
    },
  },
};

/** GET/POST /api/admin/publishing: the contract's PublishingStatus. */
const PUBLISHING_SCHEMAS = {
  PublishingStatus: {
    type: 'object',
    required: [
      'state',
      'pendingChanges',
      'lastLiveAt',
      'lastDurationMs',
      'lastError',
      'webhookConfigured',
      'nextAttemptAt',
      'liveBuildId',
      'builderReachable',
      'lastPublish',
      'deploy',
    ],
    properties: {
      state: { type: 'string', enum: ['idle', 'queued', 'building', 'live', 'failed'] },
      pendingChanges: { type: 'integer', description: 'Content changes saved but not yet in a live version.' },
      lastLiveAt: nullable({ type: 'string', format: 'date-time' }),
      lastDurationMs: nullable({ type: 'integer' }),
      lastError: nullable({ type: 'string', description: "The last lines of the build log when state is 'failed'." }),
      webhookConfigured: { type: 'boolean' },
      nextAttemptAt: nullable({ type: 'string', format: 'date-time' }),
      liveBuildId: nullable({ type: 'string' }),
      builderReachable: nullable({ type: 'boolean' }),
      lastPublish: nullable(ref('LastPublish')),
      deploy: nullable(ref('DeployStatus')),
    },
  },
  DeployStatus: {
    type: 'object',
    description:
      "The builder's copy of the site in an S3-compatible bucket for a static host or CDN (DEPLOY_S3_URL); null when it does not deploy.",
    required: ['state', 'target', 'lastDeployedBuildId', 'lastDeployedAt', 'lastUploaded', 'lastError', 'retryAt'],
    properties: {
      state: {
        type: 'string',
        enum: ['idle', 'deploying', 'deployed', 'retrying', 'failed'],
        description: "'retrying' / 'failed': the bucket still serves the version before (never a page without its assets).",
      },
      target: { type: 'string', description: 's3://bucket/prefix/' },
      lastDeployedBuildId: nullable({ type: 'string' }),
      lastDeployedAt: nullable({ type: 'string', format: 'date-time' }),
      lastUploaded: nullable({ type: 'integer', description: 'Objects the last deploy uploaded (only what changed).' }),
      lastError: nullable({ type: 'string' }),
      retryAt: nullable({ type: 'string', format: 'date-time' }),
    },
  },
  LastPublish: {
    type: 'object',
    description: "What the live version's publish did, when the builder reports it.",
    required: ['mode', 'pagesUpdated', 'liveAfterSaveMs'],
    properties: {
      mode: { type: 'string', enum: ['full', 'targeted'], description: "'targeted': only the pages that read what changed were rendered." },
      pagesUpdated: nullable({ type: 'integer', description: 'Pages (not assets) added, changed or removed against the version before.' }),
      liveAfterSaveMs: nullable({
        type: 'integer',
        description: "From the newest save it includes to live; null for a publish no save caused ('Publish now').",
      }),
    },
  },
};

/**
 * OpenAPI at /api/docs (JSON at /api/docs-json), generated from the controllers; request body
 * schemas come from the class-validator rules the API actually enforces.
 */
type SchemaOptions = NonNullable<Parameters<typeof validationMetadatasToSchemas>[0]>;
/** class-transformer's `@Type`s (the same module instance the DTOs' decorators wrote to), so a nested list names its item's schema. */
const { defaultMetadataStorage: classTransformerMetadataStorage } = createRequire(import.meta.url)('class-transformer/cjs/storage') as {
  defaultMetadataStorage: SchemaOptions['classTransformerMetadataStorage'];
};

/**
 * The request schemas that class-validator-jsonschema writes from the DTOs, said the OpenAPI 3.0 way
 * (the document's version), so client generators read them: a value is never null unless it says
 * `nullable`, so its `not: {type: 'null'}` goes; a `$ref` takes no siblings, so it is wrapped in
 * `allOf`, and one to the class `Object` (the design type of a `string | null` property) says nothing
 * that its siblings do not, so it goes.
 */
function asOpenApi30(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(asOpenApi30);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, asOpenApi30(value)]));
  const not = out.not as Record<string, unknown> | undefined;
  if (not && Object.keys(not).length === 1 && not.type === 'null') delete out.not;
  if (typeof out.$ref === 'string' && Object.keys(out).length > 1) {
    const { $ref, ...rest } = out;
    return $ref.endsWith('/Object') ? rest : { allOf: [{ $ref }], ...rest };
  }
  return out;
}

export function setupOpenApi(app: INestApplication) {
  const config = new DocumentBuilder()
    .setTitle('Portfolio API')
    .setDescription(
      'Content API of the author portfolio. Errors are JSON {statusCode, message, errors?} (English), with messageKey, messageParams and errorKeys naming the messages in the catalogue of @portfolio/contract/messages (English and Arabic). Admin routes need `Authorization: Bearer <sessionId>` from POST /api/admin/login.',
    )
    .setVersion('1.0')
    .addBearerAuth()
    .build();
  // Built on the first request for the docs, not at start: most processes never serve them.
  let document: OpenAPIObject | undefined;
  const build = () => {
    if (document) return document;
    document = SwaggerModule.createDocument(app, config);
    const schemas = validationMetadatasToSchemas({ refPointerPrefix: '#/components/schemas/', classTransformerMetadataStorage });
    document.components = {
      ...document.components,
      schemas: {
        ...(document.components?.schemas ?? {}),
        ...(asOpenApi30(schemas) as object),
        ...(ERROR_SCHEMAS as object),
        ...(TWO_FACTOR_SCHEMAS as object),
        ...(PUBLISHING_SCHEMAS as object),
        ...(REVISION_SCHEMAS as object),
        ...(SETTINGS_SCHEMAS as object),
        ...(IMPORT_SCHEMAS as object),
        ...(NEWSLETTER_SCHEMAS as object),
        ...(IMAGE_VARIANTS_SCHEMAS as object),
      },
    };
    const errorResponse = { description: 'Error', content: { 'application/json': { schema: ref('ErrorBody') } } };
    for (const path of Object.values(document.paths)) {
      for (const operation of Object.values(path)) {
        if (operation && typeof operation === 'object' && 'responses' in operation) operation.responses.default ??= errorResponse;
      }
    }
    documentTwoFactor(document);
    return document;
  };
  // The docs page is a page of this site: the site's headers (Swagger UI loads only its own files and
  // the JSON document from here, with inline styles, which that policy allows).
  app.use('/api/docs', (_req: Request, res: Response, next: NextFunction) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    next();
  });
  SwaggerModule.setup('api/docs', app, build, { jsonDocumentUrl: 'api/docs-json', useGlobalPrefix: false });
}
