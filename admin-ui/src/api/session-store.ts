/** Where the admin session id lives between visits (specification, sections 4 and 9). */
export const SESSION_STORAGE_KEY = 'admin_session';

export const sessionStore = {
  get(): string | null {
    try {
      return localStorage.getItem(SESSION_STORAGE_KEY);
    } catch {
      return null;
    }
  },
  set(sessionId: string) {
    try {
      localStorage.setItem(SESSION_STORAGE_KEY, sessionId);
    } catch {
      // Storage can be disabled (private mode); the session then lasts as long as the overlay.
    }
  },
  clear() {
    try {
      localStorage.removeItem(SESSION_STORAGE_KEY);
    } catch {
      // See set().
    }
  },
};
