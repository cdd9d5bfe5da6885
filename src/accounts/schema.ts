import { Type } from '@sinclair/typebox';

/** The accounts endpoints' parameters and answers, for the API description (src/openapi). */

export const LOGIN_INPUT = Type.Object({
  auth: Type.Object(
    {
      user: Type.String({ description: 'e-mail or username (any case)' }),
      password: Type.String(),
    },
    { description: 'as a form: auth[user] and auth[password]' },
  ),
});

export const LOGIN_DATA = Type.Object({
  user: Type.Object({
    id: Type.Integer(),
    company: Type.Integer(),
    realname: Type.String(),
    username: Type.Union([Type.String(), Type.Null()]),
  }),
});

export const ME_DATA = Type.Object({
  user: Type.Object({
    id: Type.Integer(),
    email: Type.String(),
    username: Type.Union([Type.String(), Type.Null()]),
    realname: Type.String(),
    language: Type.String({ description: 'eng or deu' }),
    company: Type.Object({ id: Type.Integer(), name: Type.String() }),
  }),
});

export const PASSWORD_INPUT = Type.Object({
  current_password: Type.String(),
  password: Type.String({ minLength: 6, description: 'the new password' }),
  password_repeat: Type.Optional(Type.String({ description: 'when sent, must equal password' })),
});

export const PASSWORD_DATA = Type.Object({ user: Type.Object({ id: Type.Integer() }) });
