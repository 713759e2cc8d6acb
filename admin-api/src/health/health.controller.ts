import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/auth-context.js';
import { Db } from '../database/db.service.js';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly db: Db) {}

  @Public()
  @Get()
  async health() {
    try {
      await this.db.dataSource.query('SELECT 1');
    } catch {
      throw new ServiceUnavailableException('The database is unavailable right now. Please try again in a moment.');
    }
    return { status: 'ok' };
  }
}
