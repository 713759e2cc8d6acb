import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';

import { BackupScheduler } from './backup-scheduler.js';

const run = {
  type: 'object',
  required: ['startedAt', 'finishedAt', 'result', 'trigger', 'file', 'sizeBytes', 'error'],
  properties: {
    startedAt: { type: 'string', format: 'date-time' },
    finishedAt: { type: 'string', format: 'date-time', nullable: true },
    result: { type: 'string', enum: ['running', 'succeeded', 'failed'] },
    trigger: { type: 'string', enum: ['scheduled', 'manual'] },
    file: { type: 'string', nullable: true, description: 'The archive file name' },
    sizeBytes: { type: 'integer', nullable: true },
    error: { type: 'string', nullable: true, description: 'Why it failed (English)' },
  },
};

@ApiTags('backups')
@ApiBearerAuth()
@Controller('admin/backups')
export class BackupsController {
  constructor(private readonly backups: BackupScheduler) {}

  /** When the last backup ran and how it went, and when the next scheduled one is due. */
  @Get()
  @ApiOkResponse({
    description: 'The state of backups (npm run backup, and the scheduled ones: BACKUP_EVERY, BACKUP_KEEP)',
    schema: {
      type: 'object',
      required: ['every', 'keep', 'nextRunAt', 'lastRun', 'lastSuccess'],
      properties: {
        every: { type: 'string', nullable: true, example: '24h', description: 'BACKUP_EVERY, or null when scheduled backups are off' },
        keep: { type: 'integer', example: 7 },
        nextRunAt: { type: 'string', format: 'date-time', nullable: true },
        lastRun: { ...run, nullable: true },
        lastSuccess: {
          type: 'object',
          nullable: true,
          required: ['finishedAt', 'file', 'sizeBytes'],
          properties: {
            finishedAt: { type: 'string', format: 'date-time' },
            file: { type: 'string', nullable: true },
            sizeBytes: { type: 'integer', nullable: true },
          },
        },
      },
    },
  })
  status() {
    return this.backups.status();
  }
}
