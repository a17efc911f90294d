// Realistic-looking fake secrets, generated from a fixed seed (never real credentials), and the contexts they are planted in.
import { seeded } from '../support/seeded-random.js';

const random = seeded(0x5ec2e7);
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
const DIGITS = '0123456789';
const ALNUM = LOWER + UPPER + DIGITS;
const HEX = DIGITS + 'abcdef';
const B64URL = `${ALNUM}-_`;
const B64 = `${ALNUM}+/`;
const PASSWORD_CHARS = `${ALNUM}!@$%^*-_+.~`;

/** Random characters from `alphabet`; the first three are a digit, a lower and an upper letter where the alphabet has them, like real keys. */
export function chars(alphabet: string, length: number): string {
  let out = '';
  for (const must of [DIGITS, LOWER, UPPER])
    if (out.length < length && [...must].some((c) => alphabet.includes(c)))
      out += pickFrom([...must].filter((c) => alphabet.includes(c)).join(''));
  while (out.length < length) out += pickFrom(alphabet);
  return out;
}

function pickFrom(alphabet: string): string {
  return alphabet[Math.floor(random() * alphabet.length)] ?? 'x';
}

const base64url = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** A secret recognisable by its shape: `prefix` is the public part that stays, the rest must vanish. */
export interface ShapedSecret {
  format: string;
  prefix: string;
  token: string;
}

const FORMATS: { format: string; make: () => [prefix: string, body: string] }[] = [
  { format: 'AWS access key id', make: () => ['AKIA', chars(UPPER + DIGITS, 16)] },
  { format: 'AWS temporary key id', make: () => ['ASIA', chars(UPPER + DIGITS, 16)] },
  { format: 'GitHub classic PAT', make: () => ['ghp_', chars(ALNUM, 36)] },
  { format: 'GitHub OAuth token', make: () => ['gho_', chars(ALNUM, 36)] },
  { format: 'GitHub app token', make: () => ['ghs_', chars(ALNUM, 36)] },
  { format: 'GitHub fine-grained PAT', make: () => ['github_pat_', `${chars(ALNUM, 22)}_${chars(ALNUM, 59)}`] },
  { format: 'GitLab PAT', make: () => ['glpat-', chars(ALNUM, 20)] },
  { format: 'Slack bot token', make: () => ['xoxb-', `${chars(DIGITS, 12)}-${chars(DIGITS, 13)}-${chars(ALNUM, 24)}`] },
  {
    format: 'Slack user token',
    make: () => ['xoxp-', `${chars(DIGITS, 12)}-${chars(DIGITS, 12)}-${chars(DIGITS, 13)}-${chars(HEX, 32)}`],
  },
  { format: 'Stripe live secret', make: () => ['sk_live_', chars(ALNUM, 99)] },
  { format: 'Stripe restricted', make: () => ['rk_live_', chars(ALNUM, 99)] },
  { format: 'Stripe test secret', make: () => ['sk_test_', chars(ALNUM, 24)] },
  { format: 'OpenAI legacy key', make: () => ['sk-', chars(ALNUM, 48)] },
  { format: 'OpenAI project key', make: () => ['sk-proj-', chars(B64URL, 156)] },
  { format: 'Anthropic key', make: () => ['sk-ant-api03-', `${chars(B64URL, 93)}AA`] },
  { format: 'Google API key', make: () => ['AIza', chars(B64URL, 35)] },
  { format: 'Google OAuth access token', make: () => ['ya29.', chars(B64URL, 160)] },
  { format: 'Twilio API key', make: () => ['SK', chars(HEX, 32)] },
  { format: 'SendGrid key', make: () => ['SG.', `${chars(B64URL, 22)}.${chars(B64URL, 43)}`] },
  { format: 'npm token', make: () => ['npm_', chars(ALNUM, 36)] },
  { format: 'Hugging Face token', make: () => ['hf_', chars(LOWER + UPPER, 34)] },
  { format: 'Shopify access token', make: () => ['shpat_', chars(HEX, 32)] },
  { format: 'DigitalOcean token', make: () => ['dop_v1_', chars(HEX, 64)] },
  {
    format: 'JWT',
    make: () => {
      const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
      const payload = base64url(
        JSON.stringify({ sub: chars(DIGITS, 10), name: 'Ada Lovelace', iat: 1_716_239_022, exp: 1_716_242_622 }),
      );
      return ['', `${header}.${payload}.${chars(B64URL, 43)}`];
    },
  },
];

export const SHAPED: ShapedSecret[] = FORMATS.flatMap(({ format, make }) =>
  [1, 2, 3].map(() => {
    const [prefix, body] = make();
    return { format, prefix, token: prefix + body };
  }),
);

export const PRIVATE_KEYS: string[] = ['RSA PRIVATE KEY', 'PRIVATE KEY', 'EC PRIVATE KEY', 'OPENSSH PRIVATE KEY'].map(
  (label) => {
    const lines = Array.from({ length: 8 }, () => chars(B64, 64));
    return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----`;
  },
);

/** A value with no recognisable shape, secret only because of the name it is given. */
export interface NamedSecret {
  name: string;
  value: string;
}

const NAMES = [
  'sessionid',
  'session_id',
  'PHPSESSID',
  'JSESSIONID',
  'connect.sid',
  'ASP.NET_SessionId',
  'laravel_session',
  '_myapp_session',
  'csrftoken',
  'csrf_token',
  '_csrf',
  'XSRF-TOKEN',
  'csrfmiddlewaretoken',
  '_token',
  'authenticity_token',
  'SECRET_KEY',
  'GITHUB_TOKEN',
  'AWS_SECRET_ACCESS_KEY',
  'DB_PASSWORD',
  'PASSWORD',
  'API_KEY',
  'SMTP_PASS',
  'STRIPE_KEY',
  'client_secret',
  'access_token',
  'refresh_token',
  'id_token',
  'auth_token',
  'remember_token',
  'private_key',
  'apiKey',
  'x-api-key',
  'passphrase',
  'webhookSecret',
];

const VALUE_SHAPES = [
  () => chars(ALNUM, 32),
  () => chars(HEX, 40),
  () => `${chars(B64, 42)}==`,
  () => chars(PASSWORD_CHARS, 14),
];

export const NAMED: NamedSecret[] = NAMES.map((name, i) => ({ name, value: VALUE_SHAPES[i % VALUE_SHAPES.length]!() }));

export const DATABASE_URLS: { url: string; password: string; user: string; host: string }[] = [
  ['postgres', 'app_user', 'db.internal:5432/app'],
  ['postgresql', 'admin', 'pg-primary.eu-west-1.rds.amazonaws.com:5432/prod'],
  ['mysql', 'root', '10.0.3.7:3306/shop'],
  ['mongodb+srv', 'svc-reader', 'cluster0.ab1cd.mongodb.net/analytics?retryWrites=true'],
  ['redis', '', 'cache.internal:6379/0'],
  ['amqp', 'rabbit', 'mq.internal:5672/vhost'],
  ['https', 'deploy', 'registry.example.com/v2/'],
  ['ftp', 'backup', 'files.example.org/dumps'],
].map(([scheme, user, rest]) => {
  const password = chars(PASSWORD_CHARS.replace(/[@.~]/g, ''), 18);
  return { url: `${scheme}://${user}:${password}@${rest}`, password, user: user!, host: rest!.split(/[:/]/)[0]! };
});

/** A 25 KB snapshot shaped like the engine's output, with a few secrets among ordinary controls and text. */
export function snapshot25k(): string {
  const lines = [
    'Page: Admin — Settings http://127.0.0.1:5173/settings?tab=api',
    '- banner:',
    '  - link "Home" [ref=e1]',
    '  - navigation "Main":',
  ];
  for (let i = 0; lines.join('\n').length < 25_000; i += 1) {
    lines.push(
      `  - row: link "Customer ${i}" [ref=e${i + 10}] | user${i}@example.com | Editor | $${(i * 1.25).toFixed(2)} | button "Delete" [ref=e${i + 11}]`,
    );
    lines.push(
      `  - text: Order 3f2b8c1e-9d4a-4b7e-a1c2-${String(i).padStart(12, '0')} shipped on 2025-06-${String((i % 28) + 1).padStart(2, '0')}, see https://shop.example.com/orders/${i}?page=2&sort=asc`,
    );
    if (i % 25 === 0) lines.push(`  - textbox "API key" [ref=e${i + 12}]: ${SHAPED[i % SHAPED.length]!.token}`);
    if (i % 40 === 0)
      lines.push(
        `  - link "Callback" [ref=e${i + 13}]: https://app.example.com/cb?${NAMED[i % NAMED.length]!.name}=${NAMED[i % NAMED.length]!.value.replace(/\W/g, '')}`,
      );
  }
  return lines.join('\n').slice(0, 25_000);
}
