import { useState } from 'react';

import { useErrorHandler } from './use-error-handler';
import { useToast } from './use-toast';

/** An action on one row of a list: its buttons wait, then a toast and `onDone` (a reload), or the failure toast. */
export function useRowAction(onDone: () => void | Promise<void>) {
  const { toast } = useToast();
  const handleError = useErrorHandler();
  const [busyId, setBusyId] = useState<number | null>(null);
  const run = async (id: number, work: () => Promise<unknown>, success: string, failure: string) => {
    setBusyId(id);
    try {
      await work();
      toast({ title: success });
      await onDone();
    } catch (error) {
      handleError(error, { title: failure });
    } finally {
      setBusyId(null);
    }
  };
  return { busyId, run };
}
