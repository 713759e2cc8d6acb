import { Global, Module } from '@nestjs/common';

import { Db } from './db.service.js';

/** The database every module writes through (the TypeORM connection itself is opened by AppModule). */
@Global()
@Module({ providers: [Db], exports: [Db] })
export class DatabaseModule {}
