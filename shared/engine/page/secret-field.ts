// Whether a form field holds a secret, by what marks it: its label, aria-label, placeholder, name, id or autocomplete
// naming one, or its being a password field. Read by snapshot (which hides such a value) and get_text (which shows the
// name and the value's length), so both tools agree on what a secret field is; and whether it holds card data.

/**
 * The name a secret field is known by ('' when it has none), or null when its value may be read. The names
 * shared/redact/names.ts judges secret (isSecretName, isSecretFieldLabel) are repeated here because this code runs in
 * the page, where no module is loaded (library.ts ships each function's source alone); test/engine/read.test.ts holds
 * the two to the same answers over every entry of names.ts.
 */
export function secretFieldName(field: HTMLInputElement | HTMLTextAreaElement): string | null {
  const EXACT = [
    'auth',
    'sid',
    'pwd',
    'pass',
    'passwd',
    'phpsessid',
    'jsessionid',
    'connectsid',
    'aspnetsessionid',
    'aspxauth',
    'cfduid',
    'authorization',
    'proxyauthorization',
    'cookie',
    'setcookie',
    'otp',
    'totp',
    'mfacode',
  ];
  const ENDINGS = [
    'password',
    'passwd',
    'passphrase',
    'secret',
    'token',
    'apikey',
    'secretkey',
    'privatekey',
    'accesskey',
    'signingkey',
    'encryptionkey',
    'masterkey',
    'sessionkey',
    'authkey',
    'session',
    'sessionid',
    'sessid',
    'csrf',
    'xsrf',
  ];
  const isSecretName = (name: string) => {
    const key = name.toLowerCase().replace(/[^a-z0-9]/g, '');
    return (
      key !== '' &&
      (EXACT.includes(key) ||
        ENDINGS.some((end) => key.endsWith(end)) ||
        /^(?:csrf|xsrf)/.test(key) ||
        /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:KEY|PASS|PWD|AUTH|CREDENTIALS)$/.test(name))
    );
  };
  const isSecretFieldLabel = (label: string) =>
    /\b(?:passwords?|passphrase|secret|tokens?|api[ _-]?key|access[ _-]?key|private[ _-]?key|secret[ _-]?key|pin|otp|one[ -]time (?:code|password))\b/i.test(
      label,
    ) ||
    (/^\S+$/.test(label) && isSecretName(label));
  const words = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();
  // A label's own words: a textarea inside it holds its default value as text, which is the secret itself.
  const labels = __cm.labelsOf(field).map((label) => {
    const copy = label.cloneNode(true) as Element;
    for (const inner of Array.from(copy.querySelectorAll('textarea, select, script, style'))) inner.remove();
    return words(copy.textContent);
  });
  const prose = [...labels, words(field.getAttribute('aria-label')), words(field.getAttribute('placeholder'))].filter(
    Boolean,
  );
  const names = [field.name, field.id].filter(Boolean);
  const autocomplete = words(field.getAttribute('autocomplete')).split(' ').filter(Boolean);
  const marking =
    prose.find(isSecretFieldLabel) ??
    names.find(isSecretName) ??
    autocomplete.find((token) => isSecretName(token) || isSecretFieldLabel(token.replace(/-/g, ' ')));
  if (marking === undefined && !__cm.isPasswordField(field)) return null;
  return marking ?? [...prose, ...names][0] ?? '';
}

/** A field for card data: autocomplete cc-number, cc-csc or cc-exp*, or a name or id saying card number, CVC or security code. */
export function isPaymentField(field: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement): boolean {
  const PAYMENT =
    /(?:card|cc)[\s_-]?(?:number|num|no)(?![a-z])|(?<![a-z])(?:cvc|cvv|csc)2?(?![a-z])|security[\s_-]?code/i;
  return (
    /\bcc-(?:number|csc|exp)/.test(field.getAttribute('autocomplete') ?? '') ||
    PAYMENT.test(`${field.name} ${field.id}`)
  );
}
