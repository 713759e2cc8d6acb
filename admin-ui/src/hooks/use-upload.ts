import type { UploadFolder } from '@portfolio/contract/types';
import { useState } from 'react';

import { ApiError } from '../api/client';
import { uploadFile } from '../api/upload';
import { useI18n } from '../i18n/i18n';
import type { Message } from '../i18n/message';
import { useErrorHandler } from './use-error-handler';
import { useToast } from './use-toast';

export interface UploadToasts {
  /** Success toast; by default 'Image/PDF uploaded successfully' with 'Saved to {folder}' (null: none). */
  success?: { title: string; description?: string | null };
  failure?: { title: string; description?: string };
  /** When the server cannot be reached; the failure toast by default. */
  network?: { title: string; description?: string };
}

/** Uploads one file to POST /api/upload and says how it went (specification, section 8). */
export function useUpload(contentType: UploadFolder, kind: 'image' | 'pdf', toasts?: UploadToasts) {
  const { t } = useI18n();
  const { toast } = useToast();
  const handleError = useErrorHandler();
  const [uploading, setUploading] = useState(false);
  const [problem, setProblem] = useState<Message | null>(null);

  const upload = async (file: File): Promise<string | null> => {
    setUploading(true);
    setProblem(null);
    try {
      const result = await uploadFile(file, contentType);
      const success = toasts?.success;
      toast({
        title: success?.title ?? t(kind === 'pdf' ? 'upload.pdfSuccess' : 'upload.imageSuccess'),
        description: success?.description === null ? undefined : (success?.description ?? t('upload.savedTo', { folder: result.folder })),
      });
      return result.url;
    } catch (error) {
      // The toast keeps the specification's words; the field says why (too large, not an image...).
      if (error instanceof ApiError && error.serverMessage) setProblem(error.serverMessage);
      const failure = toasts?.failure ?? { title: t('upload.failed'), description: t('upload.tryAgainOrUrl') };
      const network = toasts?.network ?? failure;
      handleError(error, {
        title: failure.title,
        description: failure.description,
        networkTitle: network.title,
        networkDescription: network.description ?? failure.description,
      });
      return null;
    } finally {
      setUploading(false);
    }
  };

  return { upload, uploading, problem };
}
