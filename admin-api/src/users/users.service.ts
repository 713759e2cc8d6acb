import { BadRequestException, ConflictException, ForbiddenException, Injectable } from '@nestjs/common';

import { AdminUser } from '../auth/admin-user.entity.js';
import type { AuthContext } from '../auth/auth-context.js';
import { hashPassword } from '../auth/passwords.js';
import { SessionsService } from '../auth/sessions.service.js';
import { refusal } from '../common/api-message.js';
import { findOrFail } from '../common/find-or-fail.js';
import { Db } from '../database/db.service.js';
import { CreateAdminUserDto } from './dto/create-admin-user.dto.js';
import { UpdateAdminUserDto } from './dto/update-admin-user.dto.js';

@Injectable()
export class UsersService {
  constructor(
    private readonly db: Db,
    private readonly sessions: SessionsService,
  ) {}

  list() {
    return this.db.manager.find(AdminUser, { where: { isSuperadmin: false }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  async create(dto: CreateAdminUserDto) {
    const passwordHash = await hashPassword(dto.password);
    return this.db.write(async (m) => {
      const clash = await m
        .createQueryBuilder(AdminUser, 'u')
        .where('LOWER(u.username) = :username OR LOWER(u.email) = :email', {
          username: dto.username.toLowerCase(),
          email: dto.email.toLowerCase(),
        })
        .getOne();
      if (clash) {
        const field = clash.username.toLowerCase() === dto.username.toLowerCase() ? 'username' : 'email';
        throw new ConflictException(refusal(field === 'username' ? 'validation.usernameTaken' : 'validation.emailTaken', { field }));
      }
      const user = m.create(AdminUser, { username: dto.username, email: dto.email, name: dto.name, passwordHash });
      return m.save(user);
    });
  }

  async setActive(id: number, dto: UpdateAdminUserDto, auth: AuthContext) {
    return this.db.write(async (m) => {
      const user = await findOrFail(m, AdminUser, id, 'error.userNotFound');
      if (!dto.isActive && user.isSuperadmin) throw new ForbiddenException(refusal('error.superadminDeactivation'));
      if (!dto.isActive && user.id === auth.user.id) throw new BadRequestException(refusal('error.selfDeactivation'));
      user.isActive = dto.isActive;
      await m.save(user);
      if (!dto.isActive) await this.sessions.endAllFor(user.id, m);
      return user;
    });
  }
}
