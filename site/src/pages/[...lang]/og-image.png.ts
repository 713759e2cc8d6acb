import { existsSync } from 'node:fs';

import { DEFAULT_LANG } from '@portfolio/contract/languages';
import type { APIContext } from 'astro';
import sharp, { type OverlayOptions } from 'sharp';

import { inLanguage, loadSite } from '../../config/site';
import { SHARE_CARD } from '../../lib/image-variants';

/**
 * The site's share card in the page's language (`/og-image.png`, `/ar/og-image.png`): what a page
 * without a picture of its own shares. The author's name and subtitle are drawn by libvips (Pango
 * shapes and joins Arabic) with the first of these fonts the machine has; with none, the card has no
 * text rather than boxes (`.ci/run` and the builder's image install fonts-dejavu-core).
 */
const FONTS = [
  '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
  '/usr/share/fonts/truetype/noto/NotoSansArabic-Bold.ttf',
  '/usr/share/fonts/opentype/noto/NotoSansArabic-Bold.ttf',
];
const font = FONTS.find((file) => existsSync(file));
const FAMILY: Record<string, string> = { DejaVuSans: 'DejaVu Sans', NotoSansArabic: 'Noto Sans Arabic' };

const escapeMarkup = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

async function textImage(text: string, size: number): Promise<Buffer> {
  const family = FAMILY[font!.replace(/^.*\/|-.*$/g, '')];
  return sharp({
    text: {
      text: `<span foreground="#ffffff">${escapeMarkup(text)}</span>`,
      font: `${family} Bold ${size}`,
      fontfile: font,
      width: SHARE_CARD.width - 160,
      align: 'centre',
      wrap: 'word',
      rgba: true,
      dpi: 72,
    },
  })
    .png()
    .toBuffer();
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text);
const heightOf = async (png: Buffer) => (await sharp(png).metadata()).height;
const GAP = 16;

export const GET = async ({ locals }: APIContext) => {
  const { width, height } = SHARE_CARD;
  const lang = locals.lang ?? DEFAULT_LANG;
  // Read with or without a font, so the card's recorded reads are the same on every machine.
  const site = await loadSite();
  const lines: Buffer[] = [];
  if (font) {
    lines.push(await textImage(clip(site.author[lang], 60), 64));
    const subtitle = inLanguage(site.subtitle, lang)?.text;
    if (subtitle) lines.push(await textImage(clip(subtitle, 90), 32));
  }
  const heights = await Promise.all(lines.map(heightOf));
  const textHeight = heights.reduce((sum, h) => sum + h, 0) + GAP * Math.max(0, lines.length - 1);
  // A band at the foot of the card, as tall as the text needs (two lines of name and two of subtitle at most).
  const band = Math.max(230, textHeight + 80);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#1f3b4d"/><stop offset="1" stop-color="#c8553d"/></linearGradient></defs><rect width="${width}" height="${height}" fill="url(#g)"/><circle cx="860" cy="200" r="120" fill="#f2d0a4" fill-opacity="0.8"/><rect y="${height - band}" width="${width}" height="${band}" fill="#1f3b4d" fill-opacity="0.7"/></svg>`;
  const layers: OverlayOptions[] = [];
  let top = height - band + Math.round((band - textHeight) / 2);
  for (const [i, input] of lines.entries()) {
    const { width: w = 0 } = await sharp(input).metadata();
    layers.push({ input, top, left: Math.round((width - w) / 2) });
    top += heights[i] + GAP;
  }
  const png = await sharp(Buffer.from(svg)).composite(layers).png().toBuffer();
  return new Response(new Uint8Array(png), { headers: { 'content-type': 'image/png' } });
};
