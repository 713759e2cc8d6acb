import type { UploadFolder, UploadResponse } from '@portfolio/contract/types';

import { api } from './client';

export function uploadFile(file: File, contentType: UploadFolder) {
  const form = new FormData();
  form.append('file', file);
  form.append('contentType', contentType);
  return api.upload<UploadResponse>('/api/upload', form);
}
