import path from 'node:path';

import { ConflictException, Inject, Injectable, Logger, StreamableFile } from '@nestjs/common';
import type { Response } from 'express';

import { refusal } from '../common/api-message.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { FileStorage, LocalDiskStorage, readWhole } from '../uploads/file-storage.js';
import { hasBuiltSite, siteExportZip } from './site-export.js';

/** The live site folder and the uploads, as one streamed ZIP (site-export.ts says what the copy is). */
@Injectable()
export class SiteExportService {
  private readonly logger = new Logger('SiteExport');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly storage: FileStorage,
  ) {}

  async zip(): Promise<StreamableFile> {
    if (!(await hasBuiltSite(this.config.siteDir))) throw new ConflictException(refusal('error.siteNotBuilt'));
    const { chunks } = siteExportZip({
      siteDir: this.config.siteDir,
      uploadsDir: path.join(this.config.varDir, 'uploads'),
      // Uploads in a bucket are read through the storage; the local folder is read directly.
      ...(this.storage instanceof LocalDiskStorage ? {} : { readUpload: (relative: string) => readWhole(this.storage, relative) }),
    });
    const file = new StreamableFile(chunks, {
      type: 'application/zip',
      disposition: `attachment; filename="site-${new Date().toISOString().slice(0, 10)}.zip"`,
    });
    // A failure once bytes are out must not end the answer as if the archive were whole: cut the connection.
    file.setErrorLogger((error) => this.logger.error(`Site export failed: ${error.message}`));
    file.setErrorHandler((error, res) => {
      const response = res as unknown as Response;
      if (response.headersSent) return response.destroy(error);
      response.status(500).json({ statusCode: 500, ...refusal('error.siteExportFailed') });
    });
    return file;
  }
}
