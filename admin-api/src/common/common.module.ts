import { type DynamicModule, Global, Module } from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Clock } from './clock.js';

/** What every module may inject without importing it: the configuration and the clock. */
@Global()
@Module({})
export class CommonModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CommonModule,
      providers: [{ provide: APP_CONFIG, useValue: config }, Clock],
      exports: [APP_CONFIG, Clock],
    };
  }
}
