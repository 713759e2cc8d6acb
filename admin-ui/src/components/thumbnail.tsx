import { useState } from 'react';
import { imageSrc } from '../lib/image-path';

/** A small list image; an image that fails to load is hidden silently (specification, section 8). */
export function Thumbnail({ src }: { src: string | null }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) return <span className="ao-thumb ao-thumb-empty" aria-hidden="true" />;
  return <img className="ao-thumb" src={imageSrc(src)} alt="" loading="lazy" onError={() => setFailed(true)} />;
}
