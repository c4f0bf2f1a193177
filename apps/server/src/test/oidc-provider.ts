import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  SignJWT,
  decodeJwt,
  decodeProtectedHeader,
} from 'jose';
import Provider from 'oidc-provider';

/** The person the provider signs in next (there is no login form: the interaction completes at once). */
export type IdpUser = { sub: string; email: string; emailVerified: boolean; name: string };

/**
 * How the provider's token answer is altered before it reaches the app, to prove each check: the ID token re-signed
 * with the provider's real key but another issuer, audience or nonce, or signed with a key it never published.
 */
export type Tamper = 'issuer' | 'audience' | 'nonce' | 'signature' | null;

/**
 * A real OpenID Connect provider (the `oidc-provider` package) on a loopback port, for the API and browser tests:
 * discovery, JWKS, the authorization-code flow with PKCE, signed ID tokens and a userinfo endpoint. One client,
 * whose redirect URIs are the app's SSO callbacks. `stop()` makes it unreachable.
 */
export async function startOidcProvider(options: { clientId?: string; clientSecret?: string } = {}) {
  const clientId = options.clientId ?? 'pulsecheck';
  const clientSecret = options.clientSecret ?? 'idp-client-secret-0123456789';
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' } as JWK;
  const state: { user: IdpUser; tamper: Tamper } = {
    user: { sub: 'idp-user-1', email: 'someone@example.com', emailVerified: true, name: 'Sam Someone' },
    tamper: null,
  };

  const front = createServer();
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        // Any callback of the app under test (its port differs per run).
        redirect_uris: ['http://localhost/placeholder'],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [signingKey] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({
        sub,
        email: state.user.email,
        email_verified: state.user.emailVerified,
        name: state.user.name,
      }),
    }),
    cookies: { keys: ['idp-cookie-key-0123456789'] },
  });
  // oidc-provider checks redirect URIs exactly; the test app's origin is only known per run.
  provider.Client.prototype.redirectUriAllowed = function redirectUriAllowed(uri: string) {
    return uri.startsWith('http://localhost:') || uri.startsWith('http://127.0.0.1:');
  };
  const handle = provider.callback();

  async function finishInteraction(req: IncomingMessage, res: ServerResponse) {
    const details = await provider.interactionDetails(req, res);
    const accountId = state.user.sub;
    const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
    grant.addOIDCScope('openid email profile');
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  /** The provider's own token answer, with the ID token altered as `state.tamper` says. */
  async function tamperedToken(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const inner = createServer((request, response) => void handle(request, response));
    await new Promise<void>((resolve) => inner.listen(0, '127.0.0.1', resolve));
    try {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([name]) => name !== 'host' && name !== 'content-length'),
      ) as Record<string, string>;
      const answer = await fetch(`http://127.0.0.1:${(inner.address() as AddressInfo).port}/token`, {
        method: 'POST',
        headers,
        body: Buffer.concat(chunks),
      });
      const body = (await answer.json()) as { id_token?: string };
      if (body.id_token) body.id_token = await alter(body.id_token);
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    } finally {
      await new Promise((resolve) => inner.close(resolve));
    }
  }

  async function alter(idToken: string) {
    const claims = decodeJwt(idToken);
    const header = decodeProtectedHeader(idToken);
    let key = await importJWK(signingKey, 'RS256');
    if (state.tamper === 'issuer') claims.iss = 'https://impostor.example.com';
    if (state.tamper === 'audience') claims.aud = 'another-client';
    if (state.tamper === 'nonce') claims.nonce = 'not-the-nonce';
    if (state.tamper === 'signature') key = (await generateKeyPair('RS256')).privateKey;
    return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: header.kid }).sign(key);
  }

  front.on('request', (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const fail = (error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    };
    if (path.startsWith('/interaction/')) finishInteraction(req, res).catch(fail);
    else if (path === '/token' && state.tamper) tamperedToken(req, res).catch(fail);
    else void handle(req, res);
  });

  return {
    issuer,
    clientId,
    clientSecret,
    /** Who signs in next, and how their token is altered (none by default). */
    signInAs(user: Partial<IdpUser>, tamper: Tamper = null) {
      state.user = { ...state.user, ...user };
      state.tamper = tamper;
    },
    stop: () => closeServer(front),
  };
}

export type OidcProvider = Awaited<ReturnType<typeof startOidcProvider>>;

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
