import { Body, Controller, Delete, Get, HttpCode, Ip, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { type AuthContext, CurrentAuth, Public } from '../auth/auth-context.js';
import { IdPipe } from '../common/id.pipe.js';
import { IncludeDeletedQuery } from '../common/include-deleted-query.dto.js';
import { ContactsService } from './contacts.service.js';
import { CreateContactDto } from './dto/create-contact.dto.js';

@ApiTags('contacts')
@ApiBearerAuth()
@Controller('contacts')
export class ContactsController {
  constructor(private readonly contacts: ContactsService) {}

  @Get()
  list(@Query() query: IncludeDeletedQuery) {
    return this.contacts.list(query.includeDeleted);
  }

  @Public()
  @Post()
  create(@Body() dto: CreateContactDto, @Ip() ip: string) {
    return this.contacts.create(dto, ip);
  }

  @Patch(':id/read')
  markRead(@Param('id', IdPipe) id: number) {
    return this.contacts.markRead(id);
  }

  @Delete(':id')
  @HttpCode(204)
  remove(@Param('id', IdPipe) id: number, @CurrentAuth() auth: AuthContext) {
    return this.contacts.remove(id, auth);
  }
}
