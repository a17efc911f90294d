// The CSS rules that match one element, as CSS.getMatchedStylesForNode tells them, written the way DevTools' Styles
// pane reads: most specific first, each with its file:line, and each declaration that loses the cascade marked.
//
// Who wins is worked out here, as DevTools' frontend does (the protocol does not say): the rules come least specific
// first, the element's style attribute after them; a later declaration of a property beats an earlier one unless only
// the earlier one is !important. A shorthand is overridden when every longhand it sets is. Cascade layers and the
// reversed order of important user-agent rules are not modelled: author rules are what a developer fixes.

export interface CssProperty {
  name: string;
  value: string;
  important?: boolean;
  disabled?: boolean;
  parsedOk?: boolean;
  /** Set on a declaration written in the source; the longhands a shorthand expands to come without one. */
  range?: { startLine: number };
  longhandProperties?: { name: string }[];
}

interface CssStyle {
  cssProperties: CssProperty[];
  range?: { startLine: number };
}

export interface CssRuleMatch {
  rule: {
    styleSheetId?: string;
    selectorList: { selectors: { text: string }[]; text: string };
    origin: string;
    style: CssStyle;
    media?: { text: string }[];
  };
  matchingSelectors: number[];
}

export interface MatchedStyles {
  inlineStyle?: CssStyle;
  matchedCSSRules?: CssRuleMatch[];
}

/** A stylesheet as CSS.styleSheetAdded told it. */
export interface SheetHeader {
  styleSheetId: string;
  sourceURL: string;
  /** Where the sheet starts in its file, 0-based: an inline <style> starts at its tag's line. */
  startLine: number;
}

/** A block of declarations in cascade order: the element's own style attribute has no sheet. */
interface Block {
  label: string;
  sheet?: SheetHeader;
  style: CssStyle;
  userAgent: boolean;
}

const MAX_RULES = 30;
const MAX_DECLARATIONS = 30;

/**
 * The rule lines, highest precedence first. `shows(sheet)` says whether a rule of that sheet may be shown (its file's
 * site allows reads); `name(url)` is how a file is named. Hidden and user-agent rules still take part in the cascade.
 */
export function cascadeLines(
  matched: MatchedStyles,
  headers: ReadonlyMap<string, SheetHeader>,
  shows: (sheet: SheetHeader) => boolean,
  name: (url: string) => string,
): string[] {
  const blocks: Block[] = (matched.matchedCSSRules ?? []).map(({ rule, matchingSelectors }) => {
    const selectors = matchingSelectors.map((i) => rule.selectorList.selectors[i]?.text).filter(Boolean);
    const media = (rule.media ?? []).map((query) => `@media ${query.text} `).join('');
    return {
      label: media + (selectors.length > 0 ? selectors.join(', ') : rule.selectorList.text),
      sheet: rule.styleSheetId === undefined ? undefined : headers.get(rule.styleSheetId),
      style: rule.style,
      userAgent: rule.origin !== 'regular',
    };
  });
  if (matched.inlineStyle && written(matched.inlineStyle).length > 0) {
    blocks.push({ label: 'style attribute', style: matched.inlineStyle, userAgent: false });
  }
  const winners = winningDeclarations(blocks);
  let userAgent = 0;
  let hidden = 0;
  const lines: string[] = [];
  for (const block of [...blocks].reverse()) {
    if (block.userAgent) {
      userAgent++;
      continue;
    }
    if (block.sheet && !shows(block.sheet)) {
      hidden++;
      continue;
    }
    if (lines.length >= MAX_RULES) continue;
    const declarations = written(block.style);
    const shown = declarations.slice(0, MAX_DECLARATIONS).map((property) => declaration(property, winners));
    if (declarations.length > MAX_DECLARATIONS) shown.push(`… ${declarations.length - MAX_DECLARATIONS} more`);
    lines.push(`  ${block.label}${where(block, name)} { ${shown.join('; ')} }`);
  }
  const shownRules = lines.length;
  const authored = blocks.length - userAgent - hidden;
  if (authored > shownRules) lines.push(`  … ${authored - shownRules} more rules`);
  if (hidden > 0) lines.push(`  (${hidden} from stylesheets of sites the policy keeps from you left out)`);
  if (userAgent > 0) lines.push(`  (${userAgent} browser default rules not shown)`);
  return lines;
}

/** The declarations written in the source, as the Styles pane lists them. */
function written(style: CssStyle): CssProperty[] {
  return style.cssProperties.filter((property) => property.range !== undefined && property.disabled !== true);
}

function declaration(property: CssProperty, winners: ReadonlySet<CssProperty>): string {
  // A written declaration's value carries its own `!important`; a user-agent longhand's only the flag.
  const important = property.important && !/!\s*important$/i.test(property.value) ? ' !important' : '';
  const text = `${property.name}: ${property.value}${important}`;
  if (property.parsedOk === false) return `${text} (invalid)`;
  return winners.has(property) ? text : `${text} (overridden)`;
}

/** The declarations that win at least one longhand property. */
function winningDeclarations(blocks: Block[]): Set<CssProperty> {
  const winner = new Map<string, CssProperty>();
  for (const block of blocks) {
    // A user-agent rule lists only its longhands, with no source; an author rule its written declarations.
    const declared = block.userAgent ? block.style.cssProperties : written(block.style);
    for (const property of declared) {
      if (property.parsedOk === false || property.disabled === true) continue;
      for (const longhand of longhandsOf(property)) {
        const before = winner.get(longhand);
        if (before?.important && !property.important) continue;
        winner.set(longhand, property);
      }
    }
  }
  return new Set(winner.values());
}

function longhandsOf(property: CssProperty): string[] {
  const longhands = property.longhandProperties?.map((longhand) => longhand.name) ?? [];
  return longhands.length > 0 ? longhands : [property.name];
}

function where(block: Block, name: (url: string) => string): string {
  if (!block.sheet) return '';
  if (block.sheet.sourceURL === '') return ' (constructed sheet)';
  const line = block.sheet.startLine + (block.style.range?.startLine ?? 0) + 1;
  return ` ${name(block.sheet.sourceURL)}:${line}`;
}
