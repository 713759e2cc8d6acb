import type { OpenAPIObject } from '@nestjs/swagger';

import { ref } from '../common/openapi-schema.js';

/** The answers of two-factor sign-in, for the OpenAPI document (shapes of @portfolio/contract/types). */
export const TWO_FACTOR_SCHEMAS = {
  AdminUser: {
    type: 'object',
    required: ['id', 'username', 'email', 'name', 'isActive', 'isSuperadmin', 'createdAt', 'updatedAt'],
    properties: {
      id: { type: 'integer' },
      username: { type: 'string' },
      email: { type: 'string' },
      name: { type: 'string' },
      isActive: { type: 'boolean' },
      isSuperadmin: { type: 'boolean' },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
    },
  },
  AdminUserListItem: {
    allOf: [ref('AdminUser'), { type: 'object', required: ['twoFactorEnabled'], properties: { twoFactorEnabled: { type: 'boolean' } } }],
  },
  LoginResponse: {
    type: 'object',
    required: ['user', 'sessionId'],
    properties: {
      user: ref('AdminUser'),
      sessionId: { type: 'string', description: 'Bearer token for Authorization: Bearer <sessionId>.' },
    },
  },
  TwoFactorRequiredBody: {
    description:
      'The 401 of POST /api/admin/login when the password was right and the admin has two-factor sign-in: no session yet. Send `challenge` with a code to POST /api/admin/login/totp.',
    allOf: [
      ref('ErrorBody'),
      {
        type: 'object',
        required: ['challenge', 'challengeExpiresAt'],
        properties: {
          messageKey: { type: 'string', enum: ['error.twoFactorRequired'] },
          challenge: { type: 'string', description: 'Single-use, valid 5 minutes.' },
          challengeExpiresAt: { type: 'string', format: 'date-time' },
        },
      },
    ],
  },
  TwoFactorStatus: {
    type: 'object',
    required: ['enabled', 'enabledAt', 'pendingSetup', 'recoveryCodesLeft'],
    properties: {
      enabled: { type: 'boolean' },
      enabledAt: { type: 'string', format: 'date-time', nullable: true },
      pendingSetup: { type: 'boolean', description: 'A setup was started and waits for its first code.' },
      recoveryCodesLeft: { type: 'integer' },
    },
  },
  TwoFactorSetup: {
    type: 'object',
    required: ['secret', 'otpauthUrl', 'qrSvg'],
    properties: {
      secret: { type: 'string', description: 'Base32 secret, to type into an authenticator app.' },
      otpauthUrl: { type: 'string', description: 'otpauth://totp/… (SHA-1, 6 digits, 30 s).' },
      qrSvg: { type: 'string', description: 'The otpauth address as a QR code (SVG document).' },
    },
  },
  RecoveryCodesResponse: {
    type: 'object',
    required: ['recoveryCodes'],
    properties: { recoveryCodes: { type: 'array', items: { type: 'string' }, minItems: 10, maxItems: 10 } },
  },
};

/** The login's answers: a session, or (additive) the two-factor challenge; the users list's items. */
export function documentTwoFactor(document: OpenAPIObject) {
  const login = document.paths['/api/admin/login']?.post;
  if (login) {
    login.responses['200'] = { description: 'Signed in', content: { 'application/json': { schema: ref('LoginResponse') } } };
    login.responses['401'] = {
      description:
        'Wrong username or password (messageKey error.invalidCredentials), or the password was right and a two-factor code is needed (messageKey error.twoFactorRequired, with a challenge).',
      content: { 'application/json': { schema: { oneOf: [ref('ErrorBody'), ref('TwoFactorRequiredBody')] } } },
    };
  }
  const users = document.paths['/api/admin/users']?.get;
  if (users) {
    users.responses['200'] = {
      description: 'Admin users (the superadmin left out)',
      content: { 'application/json': { schema: { type: 'array', items: ref('AdminUserListItem') } } },
    };
  }
}
