import { call, STRONG_PASSWORD, type TestApp } from './app.js';

/** The developer-account calls the account suites make again and again, on the app `app()` answers. */
export function developerCalls(app: () => TestApp) {
  return {
    signUp: (email: string, extra: Record<string, unknown> = {}) =>
      call(app().app, 'POST', '/api/auth/sign-up', {
        body: { email, password: STRONG_PASSWORD, firstName: 'Indie', lastName: 'Developer', ...extra },
      }),
    confirm: (email: string, code: string) =>
      call(app().app, 'POST', '/api/auth/confirm-sign-up', { body: { email, code } }),
    signIn: (email: string, password = STRONG_PASSWORD) =>
      call(app().app, 'POST', '/api/auth/sign-in', { body: { email, password } }),
    /** What the session answers for a developer signed up by these calls, with no games yet. */
    freshSession: (email: string, company: string | null = null) => ({
      email,
      firstName: 'Indie',
      lastName: 'Developer',
      company,
      games: [],
      current_game_id: null,
    }),
  };
}
