// Secrets given a name in text: header lines, URL credentials and query parameters, HTML fields, `KEY=value` / `"key": "value"`.
import { isSecretFieldLabel, isSecretName, isSecretParam, headerKind } from './names.js';
import { mask, MASKED } from './mask.js';
import { maskNamed } from './named.js';

// A header whose value runs to the end of the line (several words): `Authorization: Bearer …`, `Cookie: a=1; b=2`.
// The value stops at a quote or backslash too, so a header inside a JSON string or a curl argument ends in time.
const HEADER_LINE = /(?<![\w-])((?:proxy-)?authorization|(?:set-)?cookie)([ \t]*:[ \t]*)([^\r\n"'\\]*)/gi;

function redactHeaderLines(text: string): string {
  return text.replace(HEADER_LINE, (whole, name: string, colon: string, value: string) => {
    const body = value.trimEnd();
    return body === '' ? whole : `${name}${colon}${maskNamed(name, body)}${value.slice(body.length)}`;
  });
}

// scheme://user:password@host, as in DATABASE_URL: the user and host stay. The password runs to the last @ before
// the path, since people paste passwords with a raw @ in them.
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]{0,30}:\/\/[^\s:/@"'<>]*:)([^\s/"'<>]+)(@)/gi;

function redactUrlPasswords(text: string): string {
  return text.replace(URL_PASSWORD, (whole, before: string, password: string, at: string) =>
    MASKED.test(password) ? whole : before + mask(password) + at,
  );
}

// name=value after ? & # or ; (and their percent-encoded forms, for a URL nested in another URL's query).
const QUERY_PARAM =
  /([?&#;]|%3F|%26|%23)([\w.$[\]-]{1,64})(=|%3D)((?:[^&#;?\s"'<>\\%|)\]]|%(?!26|23|3F)[0-9A-Fa-f]{2})+)/gi;

function redactQueryParams(text: string): string {
  return text.replace(QUERY_PARAM, (whole, separator: string, name: string, equals: string, value: string) =>
    isSecretParam(name) ? `${separator}${name}${equals}${maskNamed(name, value)}` : whole,
  );
}

// One HTML start tag; no `<` inside, so an unclosed `<a` costs a scan only up to the next `<`.
const TAG = /<[A-Za-z][^<>]*>/g;
// Attribute values in quotes, escaped quotes too: HTML an eval returned arrives as a JSON string (`name=\"csrf\"`).
const TAG_NAMES =
  /(?<![\w-])(?:name|id|property|itemprop)\s*=\s*(?:\\?"((?:[^"\\]|\\(?!"))*)\\?"|\\?'((?:[^'\\]|\\(?!'))*)\\?'|([^\s>"'\\]+))/gi;
const TAG_VALUE =
  /((?<![\w-])(?:value|content)\s*=\s*)(?:(\\?")((?:[^"\\]|\\(?!"))*)|(\\?')((?:[^'\\]|\\(?!'))*)|([^\s>"'\\]+))/gi;
const PASSWORD_TYPE = /(?<![\w-])type\s*=\s*\\?["']?password\b/i;

/** `<input name="authenticity_token" value="…">`, `<meta name="csrf-token" content="…">`, `<input type="password" value="…">`. */
function redactHtmlFields(text: string): string {
  return text.replace(TAG, (tag) => {
    const secret =
      PASSWORD_TYPE.test(tag) ||
      [...tag.matchAll(TAG_NAMES)].some((match) => isSecretName(match[1] ?? match[2] ?? match[3] ?? ''));
    if (!secret) return tag;
    // The value is masked up to its closing quote (or the end of a bare value); the quotes themselves stay.
    return tag.replace(
      TAG_VALUE,
      (whole, head: string, double?: string, inDouble?: string, single?: string, inSingle?: string, bare?: string) => {
        const value = inDouble ?? inSingle ?? bare ?? '';
        return value === '' || MASKED.test(value) ? whole : `${head}${double ?? single ?? ''}${mask(value)}`;
      },
    );
  });
}

// Quotes as text carries them: plain, backslash-escaped (JSON inside a JSON string), and as HTML entities (JSON in an
// attribute: data-config="{&quot;sessionid&quot;:&quot;…&quot;}").
const ENTITY_QUOTE = '&(?:quot|#34|#[xX]22|#39|#[xX]27|apos);';

// `name = value`, `name: value`, `"name": "value"`, `name="value"`, `\"name\":\"value\"`, `&quot;name&quot;:&quot;value&quot;`.
// Only the name and operator: the scan goes on right after them, so a pair inside another pair's value
// (`- listitem: SECRET_KEY=…`, `"stored":"{\"token\":…}"`) is found without a recursion. The name may not follow a word
// character, so each word is tried once and the scan stays linear.
const ASSIGNMENT = new RegExp(
  String.raw`(?<![\w$.-])(\\?["']|${ENTITY_QUOTE}|)([A-Za-z_$][\w$.-]{0,63})\1([ \t]*[:=][ \t]*)`,
  'g',
);
// The value of a secret name, read only then, from where the operator ended. An entity-quoted value ends at the same
// entity; a backslash escapes one character (or one entity), as in the JSON it came from.
const ASSIGNMENT_VALUE = new RegExp(
  String.raw`\\"[^"\\\n]*\\"|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'` +
    String.raw`|(${ENTITY_QUOTE})(?:\\(?:\1|(?!\1)[^\n])|(?!\1)[^\n"\\])*\1|[^\s"'<>&;,()[\]{}|\\]+`,
  'y',
);
const QUOTED_VALUE = new RegExp(String.raw`^(\\?["']|${ENTITY_QUOTE})(.*)\1$`, 's');

function redactAssignments(text: string): string {
  let out = '';
  let copied = 0;
  ASSIGNMENT.lastIndex = 0;
  for (let match = ASSIGNMENT.exec(text); match; match = ASSIGNMENT.exec(text)) {
    const [head, , name = '', operator = ''] = match;
    if (!isSecretName(name)) continue;
    const valueAt = match.index + head.length;
    ASSIGNMENT_VALUE.lastIndex = valueAt;
    const value = ASSIGNMENT_VALUE.exec(text)?.[0];
    if (value === undefined) continue;
    // Past the value whatever becomes of it, so a chain like `token=token=…` is read once.
    ASSIGNMENT.lastIndex = valueAt + value.length;
    const quoted = QUOTED_VALUE.exec(value);
    if (!quoted) {
      // A header in `Name: value` form belongs to the header-line pass, which keeps the scheme and cookie names.
      if (headerKind(name) && operator.includes(':')) continue;
      // `token = getToken()` is code naming a function, not a value; anything else named a secret is masked.
      if (text.charAt(valueAt + value.length) === '(') continue;
    }
    const open = quoted?.[1] ?? '';
    const inner = quoted?.[2] ?? value;
    out += `${text.slice(copied, valueAt)}${open}${maskNamed(name, inner)}${open}`;
    copied = valueAt + value.length;
  }
  return out + text.slice(copied);
}

// A snapshot line for a field whose label names a secret: `- textbox "API key" [ref=e5]: <value>`, `- textbox "sessionid": <value>`.
const LABELLED_FIELD = /^([ \t]*- (?:textbox|searchbox|combobox) "((?:[^"\\\n]|\\.)*)"(?: \[[^\]\n]*\])*: )(.+)$/gm;

function redactLabelledFields(text: string): string {
  return text.replace(LABELLED_FIELD, (whole, head: string, label: string, value: string) =>
    isSecretFieldLabel(label) && !MASKED.test(value) ? head + mask(value) : whole,
  );
}

/** The passes in order: multi-word values first, so later single-token passes see them masked and leave them. */
export const NAMED_PASSES: ((text: string) => string)[] = [
  redactHeaderLines,
  redactUrlPasswords,
  redactQueryParams,
  redactHtmlFields,
  redactAssignments,
  redactLabelledFields,
];
