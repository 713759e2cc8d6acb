import type { APIRoute } from 'astro';

import { laterMarkup } from '../../lib/render-context';
import { SEARCH_KINDS, type SearchKind, shardJson } from '../../lib/search/index-data';

/** The search index, one shard per kind (lib/search/index-data.ts). */
export const paths = () => SEARCH_KINDS.map((kind) => ({ kind }));

export const GET: APIRoute = async ({ params }) => {
  const kind = params.kind as SearchKind;
  if (!SEARCH_KINDS.includes(kind)) return new Response(null, { status: 404 });
  return new Response(laterMarkup(await shardJson(kind)), { headers: { 'content-type': 'application/json; charset=utf-8' } });
};
