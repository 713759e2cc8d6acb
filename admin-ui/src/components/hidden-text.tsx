import type { ReactNode } from 'react';

/** Words for screen readers only, after a visible label: 'Delete' is heard as 'Delete Gaza Nights'. */
export function HiddenText({ children }: { children: ReactNode }) {
  return (
    <>
      {' '}
      <span className="ao-sr-only">{children}</span>
    </>
  );
}
