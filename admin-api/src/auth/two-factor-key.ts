import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { Inject, Injectable, Logger } from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '../config/config.js';

/**
 * Encrypts the admins' TOTP secrets (AES-256-GCM), so a database dump or backup alone does not
 * give them away. The key is TWO_FACTOR_KEY when set; otherwise a random key kept in
 * `$VAR_DIR/secrets/two-factor.key` (made on first start, readable by the owner only; on the
 * shared volume when replicas run). Lose the key and the secrets cannot be read: admins then sign
 * in with a recovery code, or another admin turns their two-factor sign-in off.
 */
@Injectable()
export class TwoFactorKey {
  private readonly logger = new Logger('TwoFactor');
  private key: Buffer | undefined;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  private get material(): Buffer {
    if (this.key) return this.key;
    const configured = this.config.twoFactor.key;
    const raw = configured ?? this.fromFile(this.config.twoFactor.keyFile);
    this.key = createHash('sha256').update(`portfolio-two-factor:${raw}`).digest();
    return this.key;
  }

  private fromFile(file: string): string {
    try {
      return readFileSync(file, 'utf8').trim();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      // 'wx': of two processes starting together, one writes and the other reads its key.
      writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
      this.logger.log(`Made a new key for two-factor secrets: ${file}`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    return readFileSync(file, 'utf8').trim();
  }

  /** A key of its own for another purpose (the newsletter's links), derived from this one, so the server keeps one secret. */
  derive(purpose: string): Buffer {
    return createHmac('sha256', this.material).update(`derive:${purpose}`).digest();
  }

  encrypt(plain: Buffer): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.material, iv);
    const data = Buffer.concat([cipher.update(plain), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
  }

  /** The secret, or null when it was encrypted with another key (the key changed or was lost). */
  decrypt(sealed: string): Buffer | null {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || !data) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.material, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]);
    } catch {
      return null;
    }
  }
}
