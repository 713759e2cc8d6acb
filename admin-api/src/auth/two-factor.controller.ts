import { Body, Controller, Delete, Get, HttpCode, Ip, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { LoginResponse } from '@portfolio/contract/types';

import { IdPipe } from '../common/id.pipe.js';
import type { AssertSame, Serialized } from '../common/json-shape.js';
import { type AuthContext, CurrentAuth, Public } from './auth-context.js';
import { TotpLoginDto, TwoFactorCodeDto, TwoFactorConfirmDto } from './dto/two-factor.dto.js';
import { TwoFactorService } from './two-factor.service.js';

const schema = (name: string) => ({ schema: { $ref: `#/components/schemas/${name}` } });

@ApiTags('admin two-factor sign-in')
@ApiBearerAuth()
@Controller('admin')
export class TwoFactorController {
  constructor(private readonly twoFactor: TwoFactorService) {}

  @Public()
  @Post('login/totp')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Second step of a sign-in with two-factor sign-in',
    description:
      'When POST /api/admin/login answers 401 with messageKey "error.twoFactorRequired", its body carries `challenge` (valid 5 minutes). Send it with a 6-digit code from the authenticator app, or one of the recovery codes, to get the usual {user, sessionId}. Counts against the same rate limits as the password step; a code works once.',
  })
  @ApiResponse({ status: 200, description: 'Signed in: the same answer as POST /api/admin/login.', ...schema('LoginResponse') })
  login(@Body() dto: TotpLoginDto, @Ip() ip: string) {
    return this.twoFactor.completeLogin(dto, ip);
  }

  @Get('two-factor')
  @ApiOperation({ summary: "The signed-in admin's two-factor sign-in: on or off, recovery codes left" })
  @ApiResponse({ status: 200, description: 'Status', ...schema('TwoFactorStatus') })
  status(@CurrentAuth() auth: AuthContext) {
    return this.twoFactor.status(auth);
  }

  @Post('two-factor/setup')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Start setting up two-factor sign-in',
    description:
      'A new secret, its otpauth:// address and a QR code (SVG) of it. The only answer that carries the secret; it is off until confirmed.',
  })
  @ApiResponse({ status: 200, description: 'Secret to scan or type', ...schema('TwoFactorSetup') })
  setup(@CurrentAuth() auth: AuthContext) {
    return this.twoFactor.startSetup(auth);
  }

  @Post('two-factor/confirm')
  @HttpCode(200)
  @ApiOperation({ summary: 'Turn two-factor sign-in on with a current code; answers the 10 recovery codes, shown once' })
  @ApiResponse({ status: 200, description: 'Recovery codes', ...schema('RecoveryCodesResponse') })
  confirm(@CurrentAuth() auth: AuthContext, @Body() dto: TwoFactorCodeDto) {
    return this.twoFactor.confirmSetup(auth, dto.code);
  }

  @Post('two-factor/disable')
  @HttpCode(200)
  @ApiOperation({ summary: 'Turn two-factor sign-in off (a current code, a recovery code or the password)' })
  disable(@CurrentAuth() auth: AuthContext, @Body() dto: TwoFactorConfirmDto) {
    return this.twoFactor.disable(auth, dto);
  }

  @Post('two-factor/recovery-codes')
  @HttpCode(200)
  @ApiOperation({ summary: 'New recovery codes (the old ones stop working); needs a current code or the password' })
  @ApiResponse({ status: 200, description: 'Recovery codes', ...schema('RecoveryCodesResponse') })
  recoveryCodes(@CurrentAuth() auth: AuthContext, @Body() dto: TwoFactorConfirmDto) {
    return this.twoFactor.regenerateRecoveryCodes(auth, dto);
  }

  @Delete('users/:id/two-factor')
  @HttpCode(204)
  @ApiOperation({ summary: "Turn another admin's two-factor sign-in off (lost device); they sign in with the password alone" })
  reset(@Param('id', IdPipe) id: number, @CurrentAuth() auth: AuthContext) {
    return this.twoFactor.resetFor(id, auth);
  }
}

/** The code step answers exactly what the password step answers. */
type AnswerIsContract = AssertSame<Serialized<Awaited<ReturnType<TwoFactorController['login']>>>, LoginResponse>;
