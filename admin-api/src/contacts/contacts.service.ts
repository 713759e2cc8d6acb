import { Injectable } from '@nestjs/common';

import type { AuthContext } from '../auth/auth-context.js';
import { RateLimiter } from '../auth/rate-limiter.js';
import { notice } from '../common/api-message.js';
import { findOrFail } from '../common/find-or-fail.js';
import { Db } from '../database/db.service.js';
import { Contact } from './contact.entity.js';
import { CreateContactDto } from './dto/create-contact.dto.js';

const NOT_FOUND = 'error.contactNotFound';
/** A visitor may send this many messages an hour: enough for people, a brake for spam scripts. */
const PER_CLIENT_PER_HOUR = 10;

/** Contact messages are private: admins only, except sending one. Deleting keeps the row (soft). */
@Injectable()
export class ContactsService {
  constructor(
    private readonly db: Db,
    private readonly limiter: RateLimiter,
  ) {}

  list(includeDeleted = false) {
    return this.db.manager.find(Contact, { where: includeDeleted ? {} : { isDeleted: false }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  async create(dto: CreateContactDto, clientIp: string) {
    await this.limiter.consume(`contact:ip:${clientIp}`, PER_CLIENT_PER_HOUR, 3_600_000);
    const saved = await this.db.write((m) => m.save(m.create(Contact, dto)));
    return { id: saved.id, ...notice('notice.messageReceived') };
  }

  markRead(id: number) {
    return this.db.write(async (m) => {
      const contact = await findOrFail(m, Contact, id, NOT_FOUND, { isDeleted: false });
      contact.read = true;
      return m.save(contact);
    });
  }

  async remove(id: number, auth: AuthContext) {
    await this.db.write(async (m) => {
      const contact = await findOrFail(m, Contact, id, NOT_FOUND, { isDeleted: false });
      contact.isDeleted = true;
      contact.deletedAt = new Date();
      contact.deletedByUserId = auth.user.id;
      await m.save(contact);
    });
  }
}
