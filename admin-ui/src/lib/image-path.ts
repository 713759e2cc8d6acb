/**
 * Where to load a stored image from (specification, section 7): full URLs and paths under
 * /uploads/, /objects/ or /public-objects/ as they are; a bare file name lives under /uploads/.
 */
export function imageSrc(path: string): string {
  const value = path.trim();
  if (!value) return '';
  if (/^(https?:)?\/\//i.test(value) || /^(data|blob):/i.test(value)) return value;
  if (/^\/(uploads|objects|public-objects)\//.test(value)) return value;
  if (value.startsWith('/')) return value;
  return `/uploads/${value}`;
}
