import { download } from './client';

export const siteExportApi = {
  /** The live site as a ZIP (GET /api/admin/site-export); `onProgress` gets the bytes received so far. */
  download: (onProgress?: (received: number) => void) => download('/api/admin/site-export', onProgress),
};
