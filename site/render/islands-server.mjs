// The server renderer of React islands that Astro loads (render/islands-memo.mjs): @astrojs/react's, memoized.
import renderer from '@astrojs/react/server.js';

import { memoRenderer } from './islands-memo.mjs';

export default memoRenderer(renderer);
