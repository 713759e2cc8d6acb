import { CONTENT_KINDS } from '@portfolio/contract/types';

import { nullable, ref } from '../common/openapi-schema.js';

const ACTIONS = ['baseline', 'create', 'update', 'publish', 'unpublish', 'delete', 'restore', 'remove', 'revert'];

/** The answers of /api/admin/revisions: the contract's RevisionSummary, Revision, RevisionList, RemovedItem, RevisionRestoreResponse. */
export const REVISION_SCHEMAS = {
  RevisionSummary: {
    type: 'object',
    required: ['kind', 'entityId', 'revision', 'action', 'userId', 'username', 'createdAt', 'changedFields', 'restoredFrom'],
    properties: {
      kind: { type: 'string', enum: [...CONTENT_KINDS] },
      entityId: { type: 'integer' },
      revision: { type: 'integer', description: '1, 2, 3 … per item.' },
      action: {
        type: 'string',
        enum: ACTIONS,
        description:
          "'baseline': the state before the first save with revisions kept; 'publish'/'unpublish': only `published` changed; 'remove': removed for good (snapshot: the item as it was); 'revert': a restore of `restoredFrom`.",
      },
      userId: nullable({ type: 'integer' }),
      username: nullable({ type: 'string', description: 'The admin’s username at the time of the save.' }),
      createdAt: { type: 'string', format: 'date-time' },
      changedFields: {
        type: 'array',
        items: { type: 'string' },
        description: 'Content fields the save changed (audit columns and the download counter left out).',
      },
      restoredFrom: nullable({ type: 'integer' }),
    },
  },
  Revision: {
    allOf: [
      ref('RevisionSummary'),
      {
        type: 'object',
        required: ['snapshot'],
        properties: {
          snapshot: {
            type: 'object',
            additionalProperties: true,
            description: 'The item after the save, as GET /api/{kind}/{id} answered it.',
          },
        },
      },
    ],
  },
  RevisionList: {
    type: 'object',
    required: ['kind', 'entityId', 'revisions', 'total', 'exists'],
    properties: {
      kind: { type: 'string', enum: [...CONTENT_KINDS] },
      entityId: { type: 'integer' },
      revisions: { type: 'array', items: ref('RevisionSummary'), description: 'Newest first.' },
      total: { type: 'integer' },
      exists: { type: 'boolean', description: 'False for an item removed for good: restoring a revision brings it back with its id.' },
    },
  },
  RemovedItem: {
    type: 'object',
    required: ['kind', 'entityId', 'title', 'removedAt', 'removedByUserId', 'removedByUsername', 'revision'],
    properties: {
      kind: { type: 'string', enum: [...CONTENT_KINDS] },
      entityId: { type: 'integer' },
      title: { type: 'string' },
      removedAt: { type: 'string', format: 'date-time' },
      removedByUserId: nullable({ type: 'integer' }),
      removedByUsername: nullable({ type: 'string' }),
      revision: { type: 'integer', description: "The 'remove' revision." },
    },
  },
  RevisionRestoreResponse: {
    type: 'object',
    required: ['item', 'revision'],
    properties: {
      item: { type: 'object', additionalProperties: true, description: 'The item as saved now.' },
      revision: ref('RevisionSummary'),
    },
  },
};

export const revisionResponse = (name: keyof typeof REVISION_SCHEMAS, list = false) => ({
  schema: list ? { type: 'array' as const, items: ref(name) } : ref(name),
});
