import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

import { messageOption } from '../../common/api-message.js';

/** A code from the authenticator app (six digits; spaces are ignored). */
export class TwoFactorCodeDto {
  @IsString(messageOption('validation.codeRequired'))
  @IsNotEmpty(messageOption('validation.codeRequired'))
  @MaxLength(50, messageOption('validation.codeRequired'))
  code: string;
}

/** The second step of a sign-in: the challenge from the login answer, and a code or a recovery code. */
export class TotpLoginDto {
  @IsString(messageOption('error.twoFactorChallengeInvalid'))
  @IsNotEmpty(messageOption('error.twoFactorChallengeInvalid'))
  @MaxLength(200, messageOption('error.twoFactorChallengeInvalid'))
  challenge: string;

  @IsString(messageOption('validation.codeRequired'))
  @IsNotEmpty(messageOption('validation.codeRequired'))
  @MaxLength(50, messageOption('validation.codeRequired'))
  code: string;
}

/** Turning two-factor sign-in off, or new recovery codes: a current code (or recovery code), or the password. */
export class TwoFactorConfirmDto {
  @IsOptional()
  @IsString(messageOption('validation.codeRequired'))
  @MaxLength(50, messageOption('validation.codeRequired'))
  code?: string;

  @IsOptional()
  @IsString(messageOption('validation.passwordRequired'))
  @MaxLength(200, messageOption('validation.passwordRequired'))
  password?: string;
}
