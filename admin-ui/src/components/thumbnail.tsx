import { imagePath } from '@portfolio/contract/rules';
import { useState } from 'react';

/**
 * A small list image, loaded from where the site loads it (imagePath); one the site would drop, or
 * that fails to load, is an empty box (specification, section 8).
 */
export function Thumbnail({ src }: { src: string | null }) {
  const [failed, setFailed] = useState(false);
  const path = imagePath(src);
  if (!path || failed) return <span className="ao-thumb ao-thumb-empty" aria-hidden="true" />;
  return <img className="ao-thumb" src={path} alt="" loading="lazy" onError={() => setFailed(true)} />;
}
