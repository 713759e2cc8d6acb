import { Module } from '@nestjs/common';

import { ContentKinds } from './content-kinds.js';

/** The kind → service map that revisions, preview and scheduling read (each kind's service registers itself). */
@Module({ providers: [ContentKinds], exports: [ContentKinds] })
export class KindsModule {}
