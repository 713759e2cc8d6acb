import { Body, Controller, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { AdminUserListItem } from '@portfolio/contract/types';

import { type AuthContext, CurrentAuth } from '../auth/auth-context.js';
import { TwoFactorService } from '../auth/two-factor.service.js';
import { IdPipe } from '../common/id.pipe.js';
import { CreateAdminUserDto } from './dto/create-admin-user.dto.js';
import { UpdateAdminUserDto } from './dto/update-admin-user.dto.js';
import { UsersService } from './users.service.js';

@ApiTags('admin users')
@ApiBearerAuth()
@Controller('admin/users')
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly twoFactor: TwoFactorService,
  ) {}

  /** Each user with `twoFactorEnabled` (the contract's AdminUserListItem). */
  @Get()
  async list(): Promise<AdminUserListItem[]> {
    const users = await this.users.list();
    const enabled = await this.twoFactor.enabledAmong(users.map((u) => u.id));
    return users.map((user) => ({ ...(user.toJSON() as unknown as AdminUserListItem), twoFactorEnabled: enabled.has(user.id) }));
  }

  @Post()
  create(@Body() dto: CreateAdminUserDto) {
    return this.users.create(dto);
  }

  @Patch(':id')
  update(@Param('id', IdPipe) id: number, @Body() dto: UpdateAdminUserDto, @CurrentAuth() auth: AuthContext) {
    return this.users.setActive(id, dto, auth);
  }
}
