import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/auth-context.js';
import { ContentVersion } from '../publishing/content-version.js';
import { refusal } from '../common/api-message.js';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly versions: ContentVersion) {}

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
}
