import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';

import { type AuthContext, CurrentAuth, Public } from '../auth/auth-context.js';
import { UpdateSettingsDto } from './dto/update-settings.dto.js';
import { settingsSchemaRef } from './settings.openapi.js';
import { SettingsService } from './settings.service.js';

@ApiTags('settings')
@Controller()
export class SettingsController {
  constructor(private readonly service: SettingsService) {}

  @Public()
  @Get('settings')
  @ApiOperation({ summary: "The author's details every page shows (names, biography, contact, footer); nothing private" })
  @ApiOkResponse({ schema: settingsSchemaRef('PublicSiteSettings') })
  publicSettings() {
    return this.service.publicSettings();
  }

  @ApiBearerAuth()
  @Get('admin/settings')
  @ApiOperation({ summary: 'The site settings, with who saved them last' })
  @ApiOkResponse({ schema: settingsSchemaRef('SiteSettings') })
  adminSettings() {
    return this.service.adminSettings();
  }

  @ApiBearerAuth()
  @Patch('admin/settings')
  @ApiOperation({ summary: 'Changes the fields sent (the overlay sends all of them); published like any content change' })
  @ApiBody({ type: UpdateSettingsDto })
  @ApiOkResponse({ schema: settingsSchemaRef('SiteSettings') })
  update(@Body() dto: UpdateSettingsDto, @CurrentAuth() auth: AuthContext) {
    return this.service.update(dto, auth);
  }
}
