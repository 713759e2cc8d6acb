import { BadGatewayException, ConflictException, Inject, Injectable, Logger } from '@nestjs/common';
import { publicPages } from '@portfolio/contract/kinds';
import { dirOf, LANGUAGES, pathFor } from '@portfolio/contract/languages';
import { messageText } from '@portfolio/contract/messages';
import type { PreviewResponse } from '@portfolio/contract/types';
import { type PreviewRenderAnswer, type PreviewRenderRequest, sign, SIGNATURE_HEADER } from '@portfolio/contract/webhook';

import type { AuthContext } from '../auth/auth-context.js';
import { refusal } from '../common/api-message.js';
import { createValidationPipe } from '../common/validation.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { ContentKinds } from '../kinds/content-kinds.js';
import type { PreviewRequestDto } from './preview-request.dto.js';

/** A preview renders at most a few pages of a large site: one minute is plenty, then it fails clearly. */
const RENDER_TIMEOUT_MS = 120_000;

/**
 * Preview: the item as the overlay's form holds it (saved or not) rendered by the site's own
 * templates, in English and Arabic, without saving or publishing anything. The API validates the
 * draft with the kind's own rules, puts it into the public list it belongs to (as it will be once
 * public) and asks the builder's running renderer (POST /hooks/preview, signed like the rebuild
 * webhook) for the item's pages with that data in place of the API's answers.
 */
@Injectable()
export class PreviewService {
  private readonly logger = new Logger('Preview');
  private readonly pipe = createValidationPipe();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly kinds: ContentKinds,
  ) {}

  /** The builder's preview address, or null where there is no builder of ours (a hosted build hook has no status URL). */
  private builderUrl(): string | null {
    const { url, secret, statusUrl } = this.config.rebuildWebhook;
    if (!url || !secret || !statusUrl) return null;
    return new URL('preview', url).href;
  }

  async preview(request: PreviewRequestDto, viewer: AuthContext): Promise<PreviewResponse> {
    const service = this.kinds.service(request.kind);
    const fields = (await this.pipe.transform(request.item, { type: 'body', metatype: service.resource.createDto })) as Record<
      string,
      unknown
    >;
    for (const key of Object.keys(fields)) if (fields[key] === undefined) delete fields[key];
    const { item, list } = await service.previewData(request.id ?? null, fields as never, viewer);
    const url = this.builderUrl();
    if (!url) throw new ConflictException(refusal('error.previewUnavailable'));
    // The item's pages (a book's reviews page only once it has reviews, as on the site), its list, home: in every language.
    const pages = publicPages(request.kind, item).concat('/');
    const paths = LANGUAGES.flatMap((lang) => pages.map((page) => pathFor(lang, page)));
    const body: PreviewRenderRequest = {
      sentAt: new Date().toISOString(),
      paths,
      overrides: { [`/api/${request.kind}`]: JSON.parse(JSON.stringify(list)) },
    };
    const raw = JSON.stringify(body);
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: sign(this.config.rebuildWebhook.secret!, raw) },
        body: raw,
        signal: AbortSignal.timeout(RENDER_TIMEOUT_MS),
      });
    } catch (error) {
      const reason =
        (error as Error).name === 'TimeoutError' ? 'the site builder took too long to answer' : 'the site builder is not reachable';
      throw new BadGatewayException(refusal('error.previewFailed', { params: { reason } }));
    }
    const answer = (await res.json().catch(() => null)) as (Partial<PreviewRenderAnswer> & { error?: string }) | null;
    if (res.status === 409) throw new ConflictException(refusal('error.previewUnavailable'));
    if (!res.ok || !Array.isArray(answer?.pages)) {
      this.logger.warn(`the builder answered a preview with ${res.status}: ${answer?.error ?? ''}`);
      throw new BadGatewayException(
        refusal('error.previewFailed', { params: { reason: answer?.error ?? `the site builder answered ${res.status}` } }),
      );
    }
    return {
      kind: request.kind,
      id: item.id,
      pages: answer.pages.map((page) => ({ path: page.path, status: page.status, html: page.html ? markAsPreview(page.html) : '' })),
    };
  }
}

const BANNER =
  '<div role="note" data-preview-banner style="position:sticky;top:0;z-index:2147483647;background:#7a2e0e;color:#fff;font:600 14px/1.4 system-ui,sans-serif;padding:6px 12px;text-align:center">' +
  LANGUAGES.map(
    (lang) => `<span lang="${lang}"${dirOf(lang) === 'rtl' ? ' dir="rtl"' : ''}>${messageText('notice.previewBanner', lang)}</span>`,
  ).join(' · ') +
  '</div>';

/** Never indexed (a meta robots beside the X-Robots-Tag header), and a banner that says what it is. */
export function markAsPreview(html: string): string {
  const robots = '<meta name="robots" content="noindex, nofollow">';
  let out = html.replace(/<meta name="robots"[^>]*>/gi, '');
  out = /<head[^>]*>/i.test(out) ? out.replace(/<head[^>]*>/i, (head) => `${head}${robots}`) : robots + out;
  return /<body[^>]*>/i.test(out) ? out.replace(/<body[^>]*>/i, (body) => `${body}${BANNER}`) : out;
}
