import { ref } from '../common/openapi-schema.js';
/** OpenAPI schemas of the import answers (@portfolio/contract/imports). */
const text = { type: 'string' };
const count = { type: 'integer', minimum: 0 };
const names = { type: 'array', items: text };
const actions = ['create', 'update', 'unchanged', 'skip'];
const progress = { type: 'object', required: ['done', 'total'], properties: { done: count, total: count } };
const named = { type: 'array', items: { type: 'object', required: ['name', 'count'], properties: { name: text, count } } };

export const importSchemaRef = (name: 'ImportJob') => ref(name);

export const IMPORT_SCHEMAS = {
  ImportWarning: { type: 'object', required: ['title', 'message'], properties: { title: text, message: text } },
  ImportMapping: {
    type: 'object',
    required: ['newsCategories', 'newsTags'],
    properties: { newsCategories: names, newsTags: names },
    description: 'Which source categories / tags make a post news; every other post becomes an essay. Pages are not imported.',
  },
  ImportPlanItem: {
    type: 'object',
    properties: {
      sourceId: text,
      title: text,
      kind: { type: 'string', enum: ['essays', 'news'], nullable: true },
      action: { type: 'string', enum: actions },
      reason: { type: 'string', nullable: true, description: 'Why it is skipped ("A page, not a post").' },
      language: text,
      translations: names,
      status: { type: 'string', enum: ['published', 'draft', 'scheduled'] },
      date: { type: 'string', format: 'date-time', nullable: true },
      categories: names,
      tags: names,
      images: count,
    },
  },
  ImportReport: {
    type: 'object',
    properties: {
      format: { type: 'string', enum: ['wordpress', 'ghost', 'substack', 'markdown'] },
      counts: { type: 'object', properties: Object.fromEntries(actions.map((a) => [a, count])) },
      items: { type: 'array', items: ref('ImportPlanItem') },
      warnings: { type: 'array', items: ref('ImportWarning') },
      categories: named,
      tags: named,
    },
  },
  ImportResult: {
    type: 'object',
    required: ['sourceId', 'title', 'kind', 'id', 'action'],
    properties: {
      sourceId: text,
      title: text,
      kind: { type: 'string', enum: ['essays', 'news'] },
      id: { type: 'integer' },
      action: { type: 'string', enum: ['create', 'update'] },
    },
    description: 'An item the apply saved (created or updated): its kind and id.',
  },
  ImportJob: {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      state: { type: 'string', enum: ['ready', 'applying', 'done', 'failed'] },
      format: { type: 'string', enum: ['wordpress', 'ghost', 'substack', 'markdown'] },
      fileName: text,
      createdAt: { type: 'string', format: 'date-time' },
      finishedAt: { type: 'string', format: 'date-time', nullable: true },
      mapping: ref('ImportMapping'),
      report: ref('ImportReport'),
      progress: { type: 'object', properties: { items: progress, images: progress } },
      applyWarnings: { type: 'array', items: ref('ImportWarning') },
      results: { type: 'array', items: ref('ImportResult') },
      error: { type: 'string', nullable: true },
    },
  },
};
