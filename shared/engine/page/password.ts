// In-page password rules: which fields hold a secret, and which one a frame shows (the question the eval guard asks).

/**
 * A field whose value is a secret: type=password; one declaring a password autocomplete (current-, new-password);
 * or a text field a show-password toggle switched from type=password, which still says "password" in its name, id,
 * placeholder, aria-label or label. PIN is left out on purpose: "PIN code" is India's postal code, and the word
 * hides inside shipping and spinner.
 */
export function isPasswordField(element: Element): boolean {
  if (element.localName !== 'input') return false;
  const input = element as HTMLInputElement;
  if (input.type === 'password' || /password/i.test(input.getAttribute('autocomplete') ?? '')) return true;
  if (input.type !== 'text') return false;
  const secret =
    /pass(?:word|wd|code|phrase)|pwd|passwort|contrase|mot de passe|senha|wachtwoord|пароль|パスワード|密码|비밀번호/i;
  if (
    secret.test(input.name) ||
    secret.test(input.id) ||
    secret.test(input.placeholder) ||
    secret.test(input.getAttribute('aria-label') ?? '')
  )
    return true;
  return __cm.labelsOf(input).some((label) => secret.test(label.textContent ?? ''));
}

/**
 * The first password field this frame shows, open shadow roots included, named by its label, aria-label, name, id or
 * placeholder, never its value; null when there is none. A field counts when it is rendered (an empty one still
 * invites the person's typing), or when it holds a value though hidden (the first step of a two-step login, kept in
 * the page): the secret is what is guarded. An empty field hidden in a closed menu or template does not count.
 * `inputs`: where to look, in order (the password watch names the few that may be password fields); the whole frame
 * when left out.
 */
export function shownPasswordField(
  inputs: Iterable<HTMLInputElement> = __cm.deepQueryAll(document, 'input') as HTMLInputElement[],
): string | null {
  for (const input of inputs) {
    if (!__cm.isPasswordField(input)) continue;
    if (!input.value && !input.checkVisibility({ visibilityProperty: true })) continue;
    const label = __cm
      .labelsOf(input)
      .map((each) => each.textContent ?? '')
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    const [kind, name] = label
      ? ['label', label]
      : input.getAttribute('aria-label')
        ? ['aria-label', input.getAttribute('aria-label')!]
        : input.name
          ? ['name', input.name]
          : input.id
            ? ['id', input.id]
            : input.placeholder
              ? ['placeholder', input.placeholder]
              : ['type', input.type];
    const where = input.getRootNode() === document ? '' : ' in a shadow root';
    return `${kind} ${JSON.stringify(name.slice(0, 60))}${where}`;
  }
  return null;
}
