import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadTestSettings } from '../config';
import { freePort } from './server-process';

const SIMPLESAMLPHP = process.env.SIMPLESAMLPHP_DIR ?? '/usr/share/simplesamlphp';
export const SIMPLESAMLPHP_INSTALL = 'apt-get install -y simplesamlphp php-cli php-xml php-mbstring';

/**
 * Whether SimpleSAMLphp (Debian's `simplesamlphp`, with php-cli, php-xml and php-mbstring) is missing: CI installs it (.ci/run)
 * and fails without it; elsewhere the SAML tests that need it are skipped, loudly.
 */
export function simpleSamlPhpMissing(): boolean {
  const php = spawnSync('php', ['-m']);
  const ready =
    php.status === 0 && /^dom$/m.test(php.stdout.toString()) && existsSync(path.join(SIMPLESAMLPHP, 'www'));
  if (ready) return false;
  if (loadTestSettings().ci) throw new Error(`SimpleSAMLphp is missing: ${SIMPLESAMLPHP_INSTALL}`);
  console.warn(`\n!!! SAML tests against SimpleSAMLphp SKIPPED: it is missing (${SIMPLESAMLPHP_INSTALL}).\n`);
  return true;
}

export type SamlIdpUser = { username: string; password: string; email: string; name: string };

const php = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/**
 * A real SAML 2.0 identity provider: SimpleSAMLphp run by php's built-in web server on a loopback port, with its own
 * configuration directory (SIMPLESAMLPHP_CONFIG_DIR), a signing key and certificate made by openssl, an
 * `exampleauth:UserPass` source holding `users`, and the service providers `registerSp` adds (their metadata is
 * re-read on every request). Responses and assertions are signed with RSA-SHA256.
 */
export async function startSamlIdp(options: { users: SamlIdpUser[] }) {
  const dir = mkdtempSync(path.join(tmpdir(), 'simplesamlphp-'));
  const config = path.join(dir, 'config');
  for (const sub of ['config', 'metadata', 'cert', 'log', 'data', 'tmp', 'sessions'])
    mkdirSync(path.join(dir, sub));
  const keyMade = spawnSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-sha256',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=SimpleSAMLphp test IdP',
    '-keyout',
    path.join(dir, 'cert', 'idp.key'),
    '-out',
    path.join(dir, 'cert', 'idp.crt'),
  ]);
  if (keyMade.status !== 0) throw new Error(`openssl failed: ${keyMade.stderr.toString()}`);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  writeFileSync(
    path.join(config, 'config.php'),
    `<?php
$config = [
  'baseurlpath' => ${php(`${baseUrl}/`)},
  'certdir' => ${php(`${dir}/cert/`)},
  'loggingdir' => ${php(`${dir}/log/`)},
  'datadir' => ${php(`${dir}/data/`)},
  'tempdir' => ${php(`${dir}/tmp`)},
  'metadatadir' => ${php(`${dir}/metadata/`)},
  'attributenamemapdir' => ${php(`${SIMPLESAMLPHP}/attributemap/`)},
  'technicalcontact_name' => 'Tests',
  'technicalcontact_email' => 'tests@example.org',
  'secretsalt' => ${php(Math.random().toString(36).repeat(3))},
  'auth.adminpassword' => ${php(Math.random().toString(36))},
  'admin.protectindexpage' => true,
  'admin.protectmetadata' => false,
  'admin.checkforupdates' => false,
  'timezone' => 'UTC',
  'enable.saml20-idp' => true,
  'logging.level' => SimpleSAML\\Logger::WARNING,
  'logging.handler' => 'errorlog',
  'showerrors' => true,
  'errorreporting' => false,
  'module.enable' => ['exampleauth' => true, 'core' => true, 'saml' => true, 'admin' => true],
  'store.type' => 'phpsession',
  'session.cookie.secure' => false,
  'session.cookie.samesite' => null,
  'session.phpsession.savepath' => ${php(`${dir}/sessions`)},
  'language.cookie.secure' => false,
];
`,
  );
  const writeUsers = (users: SamlIdpUser[]) =>
    writeFileSync(
      path.join(config, 'authsources.php'),
      `<?php
$config = [
  'admin' => ['core:AdminPassword'],
  'example-userpass' => ['exampleauth:UserPass',
${users
  .map(
    (user) =>
      `    ${php(`${user.username}:${user.password}`)} => ['uid' => [${php(user.username)}], 'email' => [${php(user.email)}], 'displayName' => [${php(user.name)}]],`,
  )
  .join('\n')}
  ],
];
`,
    );
  writeUsers(options.users);
  writeFileSync(
    path.join(dir, 'metadata', 'saml20-idp-hosted.php'),
    `<?php
$metadata['__DYNAMIC:1__'] = [
  'host' => '__DEFAULT__',
  'privatekey' => 'idp.key',
  'certificate' => 'idp.crt',
  'auth' => 'example-userpass',
  'signature.algorithm' => 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  'sign.response' => true,
  'sign.assertion' => true,
];
`,
  );
  const sps = new Map<string, string>();
  const writeSps = () =>
    writeFileSync(
      path.join(dir, 'metadata', 'saml20-sp-remote.php'),
      `<?php
${[...sps]
  .map(
    ([entityId, acsUrl]) => `$metadata[${php(entityId)}] = [
  'AssertionConsumerService' => [['Binding' => 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', 'Location' => ${php(acsUrl)}]],
  'NameIDFormat' => 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
  'simplesaml.nameidattribute' => 'uid',
  'simplesaml.attributes' => true,
];`,
  )
  .join('\n')}
`,
    );
  writeSps();

  const server: ChildProcess = spawn(
    'php',
    ['-S', `127.0.0.1:${port}`, '-t', path.join(SIMPLESAMLPHP, 'www')],
    {
      env: { ...process.env, SIMPLESAMLPHP_CONFIG_DIR: config },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let log = '';
  server.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  });
  const metadataUrl = `${baseUrl}/saml2/idp/metadata.php`;
  for (let attempt = 0; ; attempt++) {
    try {
      if ((await fetch(metadataUrl)).ok) break;
    } catch {
      // not listening yet
    }
    if (attempt > 100 || server.exitCode !== null) throw new Error(`SimpleSAMLphp did not start:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    baseUrl,
    metadataUrl,
    entityId: metadataUrl,
    certificate: readFileSync(path.join(dir, 'cert', 'idp.crt'), 'utf8'),
    metadataXml: async () => (await fetch(metadataUrl)).text(),
    /** Registers a service provider (our SP metadata URL's entity id and ACS URL) at the identity provider. */
    registerSp(sp: { entityId: string; acsUrl: string }) {
      sps.set(sp.entityId, sp.acsUrl);
      writeSps();
    },
    setUsers: writeUsers,
    log: () => log,
    /**
     * Follows a browser through the identity provider: from our AuthnRequest URL to its login form, signs in as
     * `user`, and answers the form its page would post to our ACS (SAMLResponse, RelayState, action).
     */
    async signIn(authnRequestUrl: string, user: { username: string; password: string }) {
      const cookies = new Map<string, string>();
      const send = async (url: string, init: RequestInit = {}) => {
        const response = await fetch(url, {
          ...init,
          redirect: 'manual',
          headers: {
            ...(init.headers as Record<string, string>),
            cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
          },
        });
        for (const cookie of response.headers.getSetCookie()) {
          const [pair] = cookie.split(';');
          const eq = pair!.indexOf('=');
          cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
        }
        return response;
      };
      let response = await send(authnRequestUrl);
      let url = authnRequestUrl;
      for (let hops = 0; response.status >= 300 && response.status < 400 && hops < 10; hops++) {
        url = new URL(response.headers.get('location')!, url).toString();
        response = await send(url);
      }
      const loginPage = await response.text();
      const authState = /name="AuthState" value="([^"]+)"/.exec(loginPage)?.[1];
      if (!authState) throw new Error(`No login form at ${url}:\n${loginPage.slice(0, 2000)}\n${log}`);
      const decode = (value: string) =>
        value
          .replace(/&quot;/g, '"')
          .replace(/&#0?39;/g, "'")
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&amp;/g, '&');
      response = await send(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          username: user.username,
          password: user.password,
          AuthState: decode(authState),
        }).toString(),
      });
      for (let hops = 0; response.status >= 300 && response.status < 400 && hops < 10; hops++) {
        url = new URL(response.headers.get('location')!, url).toString();
        response = await send(url);
      }
      const page = await response.text();
      const field = (name: string) => {
        const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(page);
        return match ? decode(match[1]!) : null;
      };
      const samlResponse = field('SAMLResponse');
      const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
      if (!samlResponse || !action)
        throw new Error(`No SAML response after signing in:\n${page.slice(0, 2000)}\n${log}`);
      return { samlResponse, relayState: field('RelayState') ?? '', action: decode(action) };
    },
    async stop() {
      server.kill();
      await new Promise((resolve) => server.once('exit', resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type SamlIdp = Awaited<ReturnType<typeof startSamlIdp>>;
