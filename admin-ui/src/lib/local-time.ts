/**
 * A `datetime-local` input holds the admin's local wall time without a zone; the API stores UTC.
 * These convert between the two in the browser's time zone.
 */
const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO time from the API → the input's value (`2026-11-24T09:30`), in local time; '' for none. */
export function localDateTimeInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The input's local value → ISO 8601 UTC; null when blank or not a time. */
export function utcFromLocalInput(value: string): string | null {
  if (!value.trim()) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/**
 * The publishAt to send: blank clears a stored time (null) and leaves it out otherwise; an
 * unchanged input keeps the stored time (the input shows minutes only, so re-sending would drop seconds).
 */
export function publishAtBody(value: string, original: string | null | undefined): string | null | undefined {
  if (original && localDateTimeInput(original) === value) return original;
  if (!value.trim()) return original ? null : undefined;
  return utcFromLocalInput(value);
}
