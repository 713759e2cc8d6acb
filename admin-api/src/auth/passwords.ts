import { hash, verify } from '@node-rs/argon2';

// argon2id (the library's default algorithm) with its default, OWASP-recommended cost.
export const hashPassword = (password: string) => hash(password);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Verifying against this when the user does not exist keeps both failures equally slow. */
let dummyHash: Promise<string> | undefined;
export const timingDummyHash = () => (dummyHash ??= hash('timing-equaliser-not-a-password'));
