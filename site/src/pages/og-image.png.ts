import type { APIRoute } from 'astro';
import sharp from 'sharp';

/** The default share image (pages with their own picture use that instead). */
export const GET: APIRoute = async () => {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630"><defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#1f3b4d"/><stop offset="1" stop-color="#c8553d"/></linearGradient></defs><rect width="1200" height="630" fill="url(#g)"/><circle cx="860" cy="220" r="120" fill="#f2d0a4" fill-opacity="0.8"/><rect y="430" width="1200" height="200" fill="#1f3b4d" fill-opacity="0.6"/></svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  return new Response(new Uint8Array(png), { headers: { 'content-type': 'image/png' } });
};
