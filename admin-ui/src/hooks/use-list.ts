import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * A list fetched in the browser. Loads when `load` changes (wrap it in useCallback) and on
 * reload(); an answer that arrives after a newer request started is dropped.
 */
export function useList<T>(load: () => Promise<T[]>, onError: (error: unknown) => void) {
  const [items, setItems] = useState<T[]>([]);
  const [isLoading, setLoading] = useState(true);
  const latest = useRef(0);
  const onErrorRef = useRef(onError);
  onErrorRef.current = onError;

  const reload = useCallback(async () => {
    const request = ++latest.current;
    setLoading(true);
    try {
      const result = await load();
      if (request === latest.current) setItems(result);
    } catch (error) {
      if (request === latest.current) onErrorRef.current(error);
    } finally {
      if (request === latest.current) setLoading(false);
    }
  }, [load]);

  useEffect(() => {
    void reload();
  }, [reload]);

  return { items, isLoading, reload };
}
