/** The query parameter of a /login link that says where to go once signed in (a path of this app only). */
export const RETURN_TO_PARAM = 'returnTo';

/** /login, returning to `path` after the sign-in (the e-mail to an account's owner when a sign-up met it). */
export const loginReturningTo = (path: string) => `/login?${RETURN_TO_PARAM}=${encodeURIComponent(path)}`;
