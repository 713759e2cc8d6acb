import { Body, Controller, Get, HttpCode, Ip, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { LoginResponse } from '@portfolio/contract/types';

import type { AssertSame, Serialized } from '../common/json-shape.js';
import { AuthService } from './auth.service.js';
import { type AuthContext, CurrentAuth, Public } from './auth-context.js';
import { ChangePasswordDto } from './dto/change-password.dto.js';
import { ForgotPasswordDto } from './dto/forgot-password.dto.js';
import { LoginDto } from './dto/login.dto.js';
import { ResetPasswordDto } from './dto/reset-password.dto.js';

@ApiTags('admin auth')
@ApiBearerAuth()
@Controller('admin')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Public()
  @Post('login')
  @HttpCode(200)
  login(@Body() dto: LoginDto, @Ip() ip: string) {
    return this.auth.login(dto, ip);
  }

  @Get('me')
  me(@CurrentAuth() auth: AuthContext) {
    return auth.user;
  }

  @Post('logout')
  @HttpCode(204)
  logout(@CurrentAuth() auth: AuthContext) {
    return this.auth.logout(auth);
  }

  @Post('password')
  @HttpCode(200)
  @ApiResponse({
    status: 429,
    description:
      'Wrong current passwords count as failed sign-ins of the account (5 in 15 minutes): the same answer and Retry-After as the login.',
  })
  changePassword(@CurrentAuth() auth: AuthContext, @Body() dto: ChangePasswordDto) {
    return this.auth.changePassword(auth, dto);
  }

  @Public()
  @Post('forgot-password')
  @HttpCode(200)
  @ApiOperation({
    description:
      "Always the same answer. The mail is queued and sent after the answer (retried while the mail server is away), so the time taken does not tell which addresses are admins'.",
  })
  forgotPassword(@Body() dto: ForgotPasswordDto, @Ip() ip: string) {
    return this.auth.forgotPassword(dto.email, ip);
  }

  @Public()
  @Post('reset-password')
  @HttpCode(200)
  resetPassword(@Body() dto: ResetPasswordDto, @Ip() ip: string) {
    return this.auth.resetPassword(dto, ip);
  }
}

/** The answer of login() is the contract's LoginResponse. */
type AnswerIsContract = AssertSame<Serialized<Awaited<ReturnType<AuthController['login']>>>, LoginResponse>;
