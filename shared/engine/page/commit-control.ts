// In-page, for the gate on risky acts: whether the control an act activates commits a send as the person (pay, order,
// post, delete…), and what marks the frame's secrets, read before the input goes out.

export interface ControlVerdict {
  /** What the act activates, as results name it: `button "Place order"`, or the field a key went to. */
  control: string;
  /** What in the DOM says the act sends something as the person (`"Place order"`, `payment fields`); null when nothing does. */
  sends: string | null;
  /** Names and ids of the frame's filled secret fields (passwords, card data, fields labelled as secrets): masked in a card by name. */
  secretNames: string[];
  /**
   * A fingerprint of each of their values (gate/card.ts `fingerprint`, repeated here as page code loads no module), so
   * a value sent under another name (`{"p": …}`) is masked too, though the page cleared the field as it sent.
   */
  secretPrints: string[];
}

/**
 * Judges the element an act activates; null means whatever has focus (a key press). Enter in a form's field activates
 * the form's default button, so that button is the control; a field with no form (a chat box) stands for itself. The
 * words are read where a person reads them (the accessible name, the value) and where a page names its control (id,
 * name), and count only at the start of a name after words like "confirm": "Place order" sends, "Sort order" does not.
 */
export function controlVerdict(element: Element | null): ControlVerdict {
  const CONTROLS =
    'button, input[type="submit"], input[type="image"], input[type="button"], [role="button"], [role="link"], [role="menuitem"], a[href], summary';
  const LEAD =
    /^(?:(?:confirm|complete|submit|finish|proceed to|continue to|go to|yes|ok|okay|now|and|jetzt|confirmer|confirmar|conferma|bestätigen)[\s,:&-]+)*/;
  const SENDS = new RegExp(
    '^(?:pay|buy|purchase|order|place (?:my |your |the )?order|checkout|check out|subscribe|donate|transfer|send|post|publish|tweet|retweet|reply|comment|share|delete|remove|destroy|close (?:my |your |the )?account|payment' +
      '|bezahlen|zahlen|kaufen|bestellen|zahlungspflichtig|senden|absenden|versenden|veröffentlichen|posten|löschen|entfernen|überweisen|spenden|abonnieren|antworten|teilen' +
      "|payer|acheter|commander|envoyer|publier|supprimer|transférer|virement|faire un don|s'abonner|répondre|partager" +
      '|pagar|comprar|realizar pedido|hacer pedido|enviar|publicar|eliminar|borrar|transferir|donar|suscribirse|responder|compartir|excluir|apagar|doar|assinar' +
      '|paga|acquista|ordina|invia|pubblica|elimina|cancella|betalen|kopen|verzenden|versturen|plaatsen|verwijderen' +
      '|оплатить|купить|заказать|отправить|опубликовать|удалить|перевести)(?![\\p{L}\\p{N}])',
    'u',
  );
  const CJK_SENDS =
    /購入|支払|注文|送信|投稿|削除|购买|支付|付款|下单|发送|发布|删除|구매|결제|주문|전송|보내기|게시|삭제/;
  // An id or name is words run together: `place-order`, `sendMessage`.
  const spaced = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[-_.]+/g, ' ');
  const sendsIn = (text: string): string | null => {
    const words = text.replace(/\s+/g, ' ').trim();
    const lead = words.toLowerCase().replace(LEAD, '');
    if (!SENDS.test(lead) && !CJK_SENDS.test(words)) return null;
    return `"${words.length > 40 ? `${words.slice(0, 39)}…` : words}"`;
  };
  // FNV-1a over UTF-16 code units, and the length: enough to recognise a value, and no copy of it leaves the page.
  const fingerprint = (value: string) => {
    let hash = 0x811c9dc5;
    for (let i = 0; i < value.length; i++) hash = Math.imul(hash ^ value.charCodeAt(i), 0x01000193) >>> 0;
    return `${hash.toString(16)}:${value.length}`;
  };

  const target = element ?? __cm.deepActiveElement() ?? document.body;
  const form = (target as HTMLInputElement).form ?? target.closest('form');
  const field = __cm.isEditable(target) || target.localName === 'select';
  const submitter =
    form && field
      ? Array.from(form.elements).find((each) => ['submit', 'image'].includes((each as HTMLButtonElement).type))
      : undefined;
  const control = submitter ?? (field ? target : (target.closest(CONTROLS) ?? target));
  const names = [
    __cm.accessibleName(control),
    control.getAttribute('title') ?? '',
    spaced(control.id),
    spaced(control.getAttribute('name') ?? ''),
  ];
  // A script may send any field of the frame, in or out of the form; only filled ones have a value to hide.
  const fields = __cm.deepQueryAll(document, 'input, textarea') as (HTMLInputElement | HTMLTextAreaElement)[];
  // Without a form the frame's inputs are those fields: one query of a large page, not two.
  const inputs = form ? __cm.deepQueryAll(form, 'input') : fields.filter((each) => each.localName === 'input');
  const payment = (inputs as HTMLInputElement[]).some(__cm.isPaymentField);
  const filled = fields.filter((each) => each.value !== '');
  const secrets = filled
    .filter((each) => __cm.isPaymentField(each) || __cm.secretFieldName(each) !== null)
    .slice(0, 50);
  return {
    control: __cm.describeElement(control),
    sends: names.map(sendsIn).find((found) => found !== null) ?? (payment ? 'payment fields' : null),
    secretNames: secrets.flatMap((each) => [each.name, each.id].filter(Boolean)),
    secretPrints: secrets.map((each) => fingerprint(each.value)),
  };
}

/** The verdict on whatever sits at a frame-local point (a click by x,y). */
export function controlVerdictAt(x: number, y: number): ControlVerdict {
  return __cm.controlVerdict(__cm.deepElementAt(x, y) ?? document.body);
}
