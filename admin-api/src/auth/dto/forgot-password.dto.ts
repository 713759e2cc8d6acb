import { IsEmail, IsString, MaxLength } from 'class-validator';
import { messageOption } from '../../common/api-message.js';

export class ForgotPasswordDto {
  @IsString(messageOption('validation.emailInvalid'))
  @IsEmail({}, messageOption('validation.emailInvalid'))
  @MaxLength(254, messageOption('validation.emailInvalid'))
  email: string;
}
