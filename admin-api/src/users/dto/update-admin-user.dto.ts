import { Bool } from '../../common/validators.js';

export class UpdateAdminUserDto {
  @Bool()
  isActive: boolean;
}
