/** Larger images are refused (uploads) and not decoded (image variants): decoding them would cost the server too much memory. */
export const MAX_IMAGE_PIXELS = 50_000_000;
