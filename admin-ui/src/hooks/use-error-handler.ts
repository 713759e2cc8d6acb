import { useCallback } from 'react';

import { ApiError } from '../api/client';
import { type I18n, useI18n } from '../i18n/i18n';
import { useSession } from './use-session';
import { useToast } from './use-toast';

export interface ErrorToastText {
  title: string;
  /** Without one, the toast says what went wrong: the status and the server's sentence, as its detail. */
  description?: string;
  /** Used instead when the server could not be reached at all. */
  networkTitle?: string;
  networkDescription?: string;
}

/** '409: This username is already taken', in the overlay's language when the answer names its key. */
export function describeError(error: unknown, { t, msg }: Pick<I18n, 't' | 'msg'>): string {
  if (error instanceof ApiError) return error.serverMessage ? `${error.status}: ${msg(error.serverMessage)}` : error.message;
  return t('common.networkError');
}

/** The one place where failures become toasts. A 401 means the session ended: back to the login. */
export function useErrorHandler() {
  const i18n = useI18n();
  const { toast } = useToast();
  const { isAuthenticated, expire } = useSession();

  return useCallback(
    (error: unknown, text: ErrorToastText) => {
      if (error instanceof ApiError && error.status === 401 && isAuthenticated) {
        expire();
        toast({ variant: 'destructive', title: i18n.t('session.ended') });
        return;
      }
      if (!(error instanceof ApiError) && text.networkTitle) {
        toast({ variant: 'destructive', title: text.networkTitle, description: text.networkDescription });
        return;
      }
      toast({
        variant: 'destructive',
        title: text.title,
        ...(text.description !== undefined ? { description: text.description } : { detail: describeError(error, i18n) }),
      });
    },
    [i18n, toast, isAuthenticated, expire],
  );
}
