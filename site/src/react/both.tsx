/** Both languages' text, server-rendered; CSS shows the one matching <html lang> (no flash before hydration). */
export function Both({ en, ar }: { en: string; ar: string }) {
  return (
    <>
      <span data-lang="en" lang="en">
        {en}
      </span>
      <span data-lang="ar" lang="ar">
        {ar}
      </span>
    </>
  );
}
