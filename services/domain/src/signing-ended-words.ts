/**
 * Why a signing link or session no longer opens — the reason a 410 carries (SigningEnded in the
 * errors contract) — in each language a signer meets Countersign in: the gateway's link pages and
 * the signing page both say it from here. ICU MessageFormat: copy_expired takes the completion
 * `date` (formatted) and the `days` a completed request's link opens its signed copy.
 */
import type { SignerLocale } from "./signer-locales.js";

export const ENDED_REASONS = [
  "cancelled",
  "declined",
  "declined_by_you",
  "expired",
  "link_replaced",
  "url_used",
  "url_expired",
  "copy_expired",
] as const;

export type EndedReason = (typeof ENDED_REASONS)[number];

export function isEndedReason(value: string): value is EndedReason {
  return (ENDED_REASONS as readonly string[]).includes(value);
}

export const ENDED_WORDS: Record<SignerLocale, Record<EndedReason, string>> = {
  en: {
    cancelled: "The sender cancelled this request; there is nothing left to sign.",
    declined: "A signer declined this request; there is nothing left to sign.",
    declined_by_you: "You declined this request; there is nothing left to sign.",
    expired: "This request expired before everyone signed; ask the sender for a new one.",
    link_replaced: "This signing link has been replaced; use the link in the most recent e-mail.",
    url_used: "This signing URL has been used already; ask for a new one.",
    url_expired: "This signing URL has expired; ask for a new one.",
    copy_expired:
      "This request was completed on {date}, and its link opens the signed document for {days, plural, one {# day} other {# days}} only; ask the sender for a copy.",
  },
  de: {
    cancelled: "Der Absender hat diese Anfrage storniert; es gibt nichts mehr zu unterschreiben.",
    declined: "Ein Unterzeichner hat diese Anfrage abgelehnt; es gibt nichts mehr zu unterschreiben.",
    declined_by_you: "Sie haben diese Anfrage abgelehnt; es gibt nichts mehr zu unterschreiben.",
    expired:
      "Diese Anfrage ist abgelaufen, bevor alle unterschrieben haben; bitten Sie den Absender um eine neue.",
    link_replaced:
      "Dieser Link zum Unterschreiben wurde ersetzt; verwenden Sie den Link aus der neuesten E-Mail.",
    url_used: "Diese URL zum Unterschreiben wurde bereits verwendet; fordern Sie eine neue an.",
    url_expired: "Diese URL zum Unterschreiben ist abgelaufen; fordern Sie eine neue an.",
    copy_expired:
      "Diese Anfrage wurde am {date} abgeschlossen, und ihr Link öffnet das unterschriebene Dokument nur {days, plural, one {# Tag} other {# Tage}} lang; bitten Sie den Absender um eine Kopie.",
  },
  fr: {
    cancelled: "L’expéditeur a annulé cette demande ; il n’y a plus rien à signer.",
    declined: "Un signataire a refusé cette demande ; il n’y a plus rien à signer.",
    declined_by_you: "Vous avez refusé cette demande ; il n’y a plus rien à signer.",
    expired:
      "Cette demande a expiré avant que tout le monde ait signé ; demandez-en une nouvelle à l’expéditeur.",
    link_replaced: "Ce lien de signature a été remplacé ; utilisez le lien du dernier e-mail reçu.",
    url_used: "Cette URL de signature a déjà été utilisée ; demandez-en une nouvelle.",
    url_expired: "Cette URL de signature a expiré ; demandez-en une nouvelle.",
    copy_expired:
      "Cette demande a été finalisée le {date}, et son lien n’ouvre le document signé que pendant {days, plural, one {# jour} other {# jours}} ; demandez une copie à l’expéditeur.",
  },
  es: {
    cancelled: "El remitente canceló esta solicitud; no queda nada por firmar.",
    declined: "Un firmante rechazó esta solicitud; no queda nada por firmar.",
    declined_by_you: "Usted rechazó esta solicitud; no queda nada por firmar.",
    expired: "Esta solicitud caducó antes de que todos firmaran; pida una nueva al remitente.",
    link_replaced:
      "Este enlace de firma se ha sustituido; use el enlace del correo electrónico más reciente.",
    url_used: "Esta URL de firma ya se ha utilizado; solicite una nueva.",
    url_expired: "Esta URL de firma ha caducado; solicite una nueva.",
    copy_expired:
      "Esta solicitud se completó el {date}, y su enlace solo abre el documento firmado durante {days, plural, one {# día} other {# días}}; pida una copia al remitente.",
  },
  "pt-BR": {
    cancelled: "O remetente cancelou esta solicitação; não há mais nada para assinar.",
    declined: "Um signatário recusou esta solicitação; não há mais nada para assinar.",
    declined_by_you: "Você recusou esta solicitação; não há mais nada para assinar.",
    expired: "Esta solicitação expirou antes que todos assinassem; peça uma nova ao remetente.",
    link_replaced: "Este link de assinatura foi substituído; use o link do e-mail mais recente.",
    url_used: "Esta URL de assinatura já foi usada; peça uma nova.",
    url_expired: "Esta URL de assinatura expirou; peça uma nova.",
    copy_expired:
      "Esta solicitação foi concluída em {date}, e o link dela só abre o documento assinado por {days, plural, one {# dia} other {# dias}}; peça uma cópia ao remetente.",
  },
  it: {
    cancelled: "Il mittente ha annullato questa richiesta; non c’è più nulla da firmare.",
    declined: "Un firmatario ha rifiutato questa richiesta; non c’è più nulla da firmare.",
    declined_by_you: "Ha rifiutato questa richiesta; non c’è più nulla da firmare.",
    expired: "Questa richiesta è scaduta prima che tutti firmassero; ne chieda una nuova al mittente.",
    link_replaced: "Questo link di firma è stato sostituito; usi il link contenuto nell’e-mail più recente.",
    url_used: "Questo URL di firma è già stato utilizzato; ne chieda uno nuovo.",
    url_expired: "Questo URL di firma è scaduto; ne chieda uno nuovo.",
    copy_expired:
      "Questa richiesta è stata completata il {date} e il suo link apre il documento firmato solo per {days, plural, one {# giorno} other {# giorni}}; chieda una copia al mittente.",
  },
  nl: {
    cancelled: "De afzender heeft dit verzoek geannuleerd; er valt niets meer te ondertekenen.",
    declined: "Een ondertekenaar heeft dit verzoek geweigerd; er valt niets meer te ondertekenen.",
    declined_by_you: "U hebt dit verzoek geweigerd; er valt niets meer te ondertekenen.",
    expired:
      "Dit verzoek is verlopen voordat iedereen had ondertekend; vraag de afzender om een nieuw verzoek.",
    link_replaced: "Deze ondertekeningslink is vervangen; gebruik de link in de meest recente e-mail.",
    url_used: "Deze ondertekenings-URL is al gebruikt; vraag om een nieuwe.",
    url_expired: "Deze ondertekenings-URL is verlopen; vraag om een nieuwe.",
    copy_expired:
      "Dit verzoek is op {date} voltooid en via de link kunt u het ondertekende document slechts {days, plural, one {# dag} other {# dagen}} openen; vraag de afzender om een kopie.",
  },
  pl: {
    cancelled: "Nadawca anulował tę prośbę o podpis; nie ma już nic do podpisania.",
    declined: "Jeden z podpisujących odrzucił tę prośbę o podpis; nie ma już nic do podpisania.",
    declined_by_you: "Ta prośba o podpis została przez Ciebie odrzucona; nie ma już nic do podpisania.",
    expired: "Ta prośba o podpis wygasła, zanim wszyscy złożyli podpisy; poproś nadawcę o nową.",
    link_replaced: "Ten link do podpisania został zastąpiony; użyj linku z najnowszej wiadomości e-mail.",
    url_used: "Ten adres URL do podpisania został już użyty; poproś o nowy.",
    url_expired: "Ten adres URL do podpisania wygasł; poproś o nowy.",
    copy_expired:
      "Ta prośba o podpis została zakończona {date}, a jej link otwiera podpisany dokument tylko przez {days, plural, one {# dzień} few {# dni} many {# dni} other {# dnia}}; poproś nadawcę o kopię.",
  },
  ja: {
    cancelled: "送信者がこの依頼をキャンセルしたため、署名が必要なものはありません。",
    declined: "署名者の1人がこの依頼を辞退したため、署名が必要なものはありません。",
    declined_by_you: "この依頼を辞退したため、署名が必要なものはありません。",
    expired: "全員の署名が完了する前に、この依頼の有効期限が切れました。送信者に新しい依頼をお求めください。",
    link_replaced:
      "この署名リンクは新しいリンクに置き換えられました。最新のメールに記載されたリンクをご利用ください。",
    url_used: "この署名URLはすでに使用されています。新しいURLをお求めください。",
    url_expired: "この署名URLは有効期限が切れています。新しいURLをお求めください。",
    copy_expired:
      "この依頼は{date}に完了しました。リンクから署名済み文書を開けるのは{days, plural, other {#日間}}のみです。送信者にコピーをお求めください。",
  },
  ar: {
    cancelled: "ألغى المرسل هذا الطلب؛ لم يعد هناك ما يلزم توقيعه.",
    declined: "رفض أحد الموقّعين هذا الطلب؛ لم يعد هناك ما يلزم توقيعه.",
    declined_by_you: "لقد رفضت هذا الطلب؛ لم يعد هناك ما يلزم توقيعه.",
    expired: "انتهت صلاحية هذا الطلب قبل أن يوقّع الجميع؛ اطلب من المرسل طلبًا جديدًا.",
    link_replaced: "تم استبدال رابط التوقيع هذا؛ استخدم الرابط الوارد في أحدث رسالة بريد إلكتروني.",
    url_used: "سبق استخدام عنوان التوقيع هذا؛ اطلب عنوانًا جديدًا.",
    url_expired: "انتهت صلاحية عنوان التوقيع هذا؛ اطلب عنوانًا جديدًا.",
    copy_expired:
      "اكتمل هذا الطلب في {date}، ولا يفتح رابطه المستند الموقّع إلا لمدة {days, plural, zero {# يوم} one {يوم واحد} two {يومين} few {# أيام} many {# يومًا} other {# يوم}}؛ اطلب من المرسل نسخة منه.",
  },
};
