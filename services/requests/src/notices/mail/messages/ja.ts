import type { Catalogue } from "./en.js";

export const ja: Catalogue = {
  greeting: "{name} 様",
  "invitation.subject": "署名のお願い：{title}",
  "invitation.lead":
    "{hasSender, select, yes {{sender} 様から} other {}}<b>{title}</b>への署名を依頼されています。",
  "resend.subject": "署名のお願い：{title}",
  "resend.lead":
    "{hasSender, select, yes {{sender} 様から依頼された} other {}}<b>{title}</b>に署名するための新しいリンクをお送りします。",
  "reminder.subject": "リマインダー：{title}への署名のお願い",
  "reminder.lead":
    "リマインダー：{hasSender, select, yes {{sender} 様から} other {}}<b>{title}</b>への署名を依頼されています。",
  "expiryWarning.subject": "まもなく期限切れ: {title}",
  "expiryWarning.lead":
    "<b>{title}</b>{hasSender, select, yes {（{sender} より）} other {}}はまもなく期限切れになりますが、まだお手続きが完了していません。",
  "recipientChanged.subject": "署名のお願い：{title}",
  "recipientChanged.lead":
    "この依頼におけるあなたの情報が更新されました。{hasSender, select, yes {{sender} 様から} other {}}<b>{title}</b>への署名を依頼されています。",
  "completed.subject": "完了：{title}",
  "completed.lead": "全員が<b>{title}</b>に署名しました。",
  "completed.attached":
    "署名済み文書を添付しています。最終ページは完了証明書です。また、文書はデジタル署名で封印されており、以降の変更はすべて検出されます。",
  "completed.tooLarge":
    "署名済み文書はサイズが大きすぎるため添付できません。下のリンクからダウンロードしてください。最終ページは完了証明書です。",
  "action.sign": "内容を確認して署名",
  "action.download": "署名済み文書をダウンロード",
  "review.subject": "ご確認ください: {title}",
  "review.reminderSubject": "リマインダー: {title} をご確認ください",
  "review.lead":
    "{hasSender, select, yes {{sender} 様から} other {}}<b>{title}</b> の確認を依頼されています。文書を開くだけで完了します。",
  "review.reminderLead":
    "リマインダー: {hasSender, select, yes {{sender} 様から} other {}}<b>{title}</b> の確認を依頼されています。",
  "action.review": "文書を確認する",
  "approve.subject": "ご承認ください: {title}",
  "approve.reminderSubject": "リマインダー: {title} をご承認ください",
  "approve.lead":
    "{hasSender, select, yes {{sender} 様から} other {}}<b>{title}</b> の承認を依頼されています。署名は不要です。承認または辞退してください。",
  "approve.reminderLead":
    "リマインダー: {hasSender, select, yes {{sender} 様から} other {}}<b>{title}</b> の承認を依頼されています。",
  "action.approve": "確認して承認する",
  senderMessage: "送信者からのメッセージ：",
  reminderNote: "このリマインダーに添えられたメモ：",
  orOpen: "または、次のアドレスを開いてください：",
  expires: "この依頼の有効期限は{date}です。",
  personal:
    "このリンクはあなた専用です。リンクを知っている人は誰でもあなたの名前で署名できるため、このメールは転送しないでください。",
  personalView:
    "このリンクはあなた専用です。リンクを持つ人は誰でもあなたとして文書を開けるため、このメールを転送しないでください。",
  signOff: "— Countersign",
  sentBy: "Countersign から送信",
  "code.subject": "{title}を開くためのコードは {code} です",
  "code.lead":
    "{hasSender, select, yes {{sender} 様からの} other {}}<b>{title}</b>を開くためのコードは次のとおりです：",
  "code.works": "このコードは、コードを請求したウィンドウで10分間有効です。",
  "code.stranger":
    "コードを請求していない場合は、他の人があなたの署名リンクを入手した可能性があります。このコードは誰にも教えず、送信者にお知らせください。",
};
