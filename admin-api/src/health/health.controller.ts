import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';

import { Public } from '../auth/auth-context.js';
import { refusal } from '../common/api-message.js';
import { OperationsService } from '../operations/operations.service.js';
import { ContentVersion } from '../publishing/content-version.js';

const NOT_READY = {
  'shutting-down': 'error.shuttingDown',
  database: 'error.databaseUnavailable',
  migrations: 'error.migrationsPending',
} as const;

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly versions: ContentVersion,
    private readonly operations: OperationsService,
  ) {}

  /**
   * `contentVersion` (the newest content change) lets a builder record which changes a build it
   * starts already contains, so a rebuild request for those changes is not built twice.
   */
  @Public()
  @Get()
  async health(): Promise<{ status: 'ok'; contentVersion: number }> {
    try {
      const { content } = await this.versions.current();
      return { status: 'ok', contentVersion: content };
    } catch {
      throw new ServiceUnavailableException(refusal('error.databaseUnavailable'));
    }
  }

  /**
   * Readiness, for a load balancer or orchestrator: 200 when this replica should get traffic; 503
   * while the database does not answer, migrations are pending, or the process is shutting down.
   * `GET /api/health` stays the liveness check (is the process up at all).
   */
  @Public()
  @Get('ready')
  @ApiOkResponse({ schema: { type: 'object', properties: { status: { type: 'string', enum: ['ready'] } } } })
  @ApiServiceUnavailableResponse({
    description: 'Not ready: the database is unreachable, migrations are pending, or the server is shutting down.',
  })
  async ready(): Promise<{ status: 'ready' }> {
    const state = await this.operations.readiness();
    if (!state.ready) throw new ServiceUnavailableException(refusal(NOT_READY[state.reason]));
    return { status: 'ready' };
  }
}
