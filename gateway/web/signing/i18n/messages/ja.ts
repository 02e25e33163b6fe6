import type { Catalogue } from "./en";

export const ja: Catalogue = {
  "document.title": "署名: {title}",
  "language.label": "言語",
  "common.tryAgain": "再試行",
  "common.cancel": "キャンセル",
  "common.close": "閉じる",
  "common.required": "（必須）",
  "common.somethingWrong": "問題が発生しました。もう一度お試しください。",
  "common.network": "サーバーに接続できませんでした。接続を確認して、もう一度お試しください。",

  "loading.title": "文書を読み込んでいます…",
  "loading.body": "しばらくお待ちください。",
  "error.title": "この署名依頼を読み込めませんでした",
  "ended.requestTitle": "この依頼には署名できなくなりました",
  "ended.sessionTitle": "この署名セッションは終了しました",
  "ended.sessionBody":
    "セキュリティのため、署名セッションには有効期限があります。続けるには、メールに記載されたリンクをもう一度開いてください。",
  "redirecting.title": "完了しました。元のサイトに戻ります…",
  "redirecting.body": "アクセス元のサイトに戻ります。",
  "declined.title": "署名を辞退しました",
  "declined.body":
    "辞退したことと、その理由は送信者に表示されます。これ以上の操作は必要ありません。このページは閉じてかまいません。",
  "reassigned.title": "この依頼を別の人に割り当てました",
  "reassigned.body":
    "{name} 様（{email}）に、代わりに署名するためのリンクをメールで送信しました。誰を選んだか、その理由は送信者に表示されます。元のリンクは使用できなくなりました。このページは閉じてかまいません。",

  "signed.title": "署名が完了しました",
  "signed.othersBody":
    "ありがとうございました。まだ署名していない人がいます。全員の署名が完了したら、完成した文書をメールでお送りします。このページは閉じてかまいません。",
  "complete.title": "文書が完成しました",
  "complete.body": "全員が署名し、文書は封印されました。コピーをダウンロードしてください：",
  "everyoneSigned.title": "全員が署名しました",
  "sealing.delayed":
    "文書の封印に通常より時間がかかっています。送信者には通知済みです。封印が完了すると、完成した文書がメールで送信されます。このページは閉じてかまいません。",
  "sealing.body": "文書を封印しています。数秒かかります。完了すると、ここからコピーをダウンロードできます。",
  "closed.cancelled.title": "この依頼はキャンセルされました",
  "closed.cancelled.body": "送信者がこの依頼をキャンセルしたため、署名できなくなりました。",
  "closed.expired.title": "この依頼は有効期限が切れています",
  "closed.expired.body": "署名できなくなりました。送信者に再送をお求めください。",
  "closed.declined.title": "この依頼は辞退されました",
  "closed.declined.body": "別の受信者が署名を辞退したため、署名できなくなりました。",
  "closed.completed.title": "この依頼は完了しています",
  "closed.completed.body": "全員が署名済みです。署名が必要なものはありません。",
  "download.signed": "署名済み文書をダウンロード",
  "copy.download": "署名した文書をダウンロード",
  "copy.note":
    "全員の署名が完了するまでの控えとして、あなたの署名入りのコピーです。証明書と封印付きの完了文書は後ほどお届けします。",

  "gate.title": "本人確認",
  "gate.lead":
    "{hasSender, select, yes {{sender} 様から} other {送信者から}}<b>{title}</b>への署名を依頼されています。文書を表示する前に、指定された{count, plural, other {コード}}を入力してください。",
  "gate.accessCode.label": "アクセスコード",
  "gate.accessCode.hint":
    "送信者から電話、SMS、郵便など、メール以外の方法で伝えられたコードです。メールには記載されていません。",
  "gate.accessCode.missing": "送信者から伝えられたアクセスコードを入力してください。",
  "gate.accessCode.wrong":
    "送信者から伝えられたアクセスコードと一致しません。あと{left, plural, other {#回}}間違えると、一時的にロックされます。",
  "gate.emailCode.label": "メールに記載されたコード",
  "gate.emailCode.sent": "{address}に6桁のコードを送信しました。有効期間は10分です。",
  "gate.emailCode.willSend": "{address}に6桁のコードを送信します。",
  "gate.emailCode.yourAddress": "お使いのメールアドレス",
  "gate.emailCode.missing": "メールに記載されたコードを入力してください。",
  "gate.emailCode.askFirst": "まずコードを請求してから、ここに入力してください。",
  "gate.emailCode.wrong":
    "メールでお送りしたコードと一致しません。あと{left, plural, other {#回}}間違えると、一時的にロックされます。",
  "gate.emailCode.send": "コードを送信",
  "gate.emailCode.sendNew": "新しいコードを送信",
  "gate.continue": "文書に進む",
  "gate.locked.title": "誤ったコードの入力が多すぎます",
  "gate.locked.body":
    "セキュリティのため、この依頼は<b>{time}</b>までロックされています。その後にもう一度お試しいただくか、{hasSender, select, yes {{sender} 様} other {送信者}}に正しいコードをお問い合わせください。",

  "header.skip": "文書へスキップ",
  "header.from": "差出人：<b>{sender}</b>",
  "header.signingAs": "<b>{name}</b> <muted>（{email}）</muted>として署名",
  "header.viewingAs": "<b>{name}</b> 様として閲覧中 <muted>({email})</muted>",
  "header.messageFrom":
    "{hasSender, select, yes {{sender} 様からのメッセージ} other {送信者からのメッセージ}}",
  "howTo.title": "署名の方法",
  "howTo.body":
    "下の文書で強調表示されたフィールドに入力し、電子署名に同意してから、ページ下部の<b>完了</b>を選択してください。",
  "howTo.requiredMark": "* の付いたフィールドは必須です。",
  "test.notice":
    "テストです：これらの書類はサービスを試すために送信されました。署名しても誰も拘束されません。",
  "viewer.title": "これらの文書の確認を依頼されています",
  "viewer.body":
    "署名は不要です。文書を開くことがあなたの役割で、その記録は残ります。送信者にも通知されました。お読みになったら、このページを閉じてかまいません。",
  "approver.title": "これらの文書の承認を依頼されています",
  "approver.body":
    "内容をお読みのうえ、承認または辞退してください。署名は不要です。承認は日時、アドレス、ブラウザーとともに記録されます。",
  "approver.consent":
    "「承認」を選択することが、これらの文書に対する私の電子的な承認であることに同意します。",
  "approver.approve": "承認",
  "approver.approving": "承認しています…",
  "approved.title": "承認しました",
  "header.approvingAs": "<b>{name}</b> 様として承認 <muted>({email})</muted>",

  "progress.none": "必須フィールドはありません",
  "progress.count": "必須フィールド{total, plural, other {#件}}中{done, number}件が完了",
  "progress.allDone": "{total, plural, other {必須フィールド（#件）はすべて入力済みです。}}",
  "progress.label": "入力済みの必須フィールド",
  "finish.fillIn": "完了するには、あと{count, plural, other {#件}}の必須フィールドに入力してください。",
  "finish.consent": "完了するには、「完了」の横で電子署名に同意してください。",
  "next.consent": "必須フィールドはすべて入力済みです。電子署名に同意してから、「完了」を選択してください。",
  "next.finish": "すべて入力済みです。「完了」を選択して署名してください。",
  "actions.label": "署名の進捗と操作",
  "actions.consent":
    "電子的に署名すること、および私の電子署名が手書きの署名と法的に同等であることに同意します。",
  "actions.consentAll": "すべて読む",
  "actions.decline": "辞退",
  "actions.next": "次のフィールド",
  "actions.signing": "署名しています…",
  "actions.finish": "完了",
  "submit.problems": "署名する前に修正が必要な問題が{count, plural, other {#件}}あります。",
  "submit.closed": "この依頼には署名できなくなりました。",

  "applied.again": "{page}ページに{label}を適用しました。変更するには、もう一度選択してください。",
  "applied.one": "{page}ページに{label}を適用しました。",
  "applied.all":
    "{kind, select, initials {{count}か所のイニシャル欄すべてに適用しました。} other {{count}か所の署名欄すべてに適用しました。}}",

  "zoom.legend": "文書の表示倍率",
  "zoom.out": "縮小",
  "zoom.in": "拡大",
  "zoom.fit": "幅に合わせる",

  "document.position": "文書 {index} / {total}",
  "document.pages": "{pages, plural, other {#ページ}}",
  "document.loadFailed": "この文書を読み込めませんでした。",
  "page.loading": "{page}ページを読み込んでいます…",
  "page.unavailable": "ページを表示できません",
  "page.label": "{total} ページ中 {page} ページ目",

  "inPerson.title": "対面での署名",
  "inPerson.body":
    "<b>{host}</b> 様がこの端末で署名を進行しています。署名する <b>{name}</b> 様に端末をお渡しください。",
  "inPerson.continue": "私は {name} です：続行",
  "header.hostedBy": "対面での署名（担当：<b>{host}</b> 様）",

  "type.signature": "署名",
  "type.initials": "イニシャル",
  "type.date_signed": "署名日",
  "type.text": "テキスト",
  "type.checkbox": "チェックボックス",
  "type.name": "氏名",
  "type.email": "メールアドレス",
  "type.date": "日付",
  "type.number": "数値",
  "type.dropdown": "選択リスト",
  "type.radio": "選択肢",
  "type.attachment": "添付ファイル",

  "field.required": "必須",
  "field.optional": "任意",
  "field.described": "{label}、{requirement}、{page}ページ",
  "field.sign": "署名",
  "field.initial": "イニシャルを記入",
  "field.toSign": "{action}：{label}、{requirement}、{page}ページ",
  "field.signedTyped": "{text}：{label}、署名済み、{page}ページ。選択すると変更できます",
  "field.signedDrawn": "{label}、署名済み（手書き）、{page}ページ。選択すると変更できます",
  "field.dateSigned": "署名日、完了時に自動入力、{page}ページ",
  "field.choose": "選択…",
  "field.pickDate": "日付を選択",
  "field.pickedDate": "{date}：{label}、{requirement}、{page}ページ。選択すると変更できます",
  "field.toPickDate": "日付を選択：{label}、{requirement}、{page}ページ",
  "field.numberHint":
    "{label}、数値{range, select, both {（{min}～{max}）} min {（{min}以上）} max {（{max}以下）} other {}}、{requirement}、{page}ページ",
  "field.notANumber": "42 や 3.5 のような数値を入力してください。",
  "field.tooSmall": "{min}以上の値を入力してください。",
  "field.tooLarge": "{max}以下の値を入力してください。",
  "field.radioOption": "{option}、{label}、{requirement}、{page}ページ",
  "field.groupCount":
    "{least, plural, =0 {} other {#個以上のボックスにチェックを入れてください。}}{most, plural, =0 {} other {#個以下のボックスにチェックを入れてください。}}",
  "field.attach": "ファイルを添付",
  "field.attaching": "添付しています…",
  "field.toAttach": "ファイルを添付：{label}、{requirement}、{page}ページ",
  "field.attachedFile": "{filename}：{label}、添付済み、{page}ページ。選択すると差し替えできます",
  "attach.tooLarge": "このファイルは10 MBを超えています。より小さいファイルを添付してください。",
  "attach.wrongType": "PDF、または PNG か JPEG の画像を添付してください。",
  "attach.failed": "ファイルを添付できませんでした。もう一度お試しください。",
  "date.title": "日付を選択",
  "date.apply": "適用",
  "date.clear": "消去",
  "filled.by": "{label}、{name} 様が入力済み",
  "filled.byWithValue": "{label}、{name} 様が入力済み：{value}",

  "signature.title": "{kind, select, initials {イニシャルの作成} other {署名の作成}}",
  "signature.how": "{kind, select, initials {イニシャルの作成方法} other {署名の作成方法}}",
  "signature.tabType": "入力",
  "signature.tabDraw": "手書き",
  "signature.typeLabel": "{kind, select, initials {イニシャル} other {氏名}}",
  "signature.preview": "プレビュー",
  "signature.drawHint":
    "マウス、ペン、または指で描いてください。キーボードをお使いの場合は「入力」タブをご利用ください。",
  "signature.canvas": "{kind, select, initials {イニシャルの描画エリア} other {署名の描画エリア}}",
  "signature.clear": "消去",
  "signature.typeFirst":
    "{kind, select, initials {先にイニシャルを入力してください。} other {先に署名を入力してください。}}",
  "signature.drawFirst":
    "{kind, select, initials {先に枠内にイニシャルを描くか、「入力」タブをご利用ください。} other {先に枠内に署名を描くか、「入力」タブをご利用ください。}}",
  "signature.applyAll":
    "{kind, select, initials {{count}か所のイニシャル欄すべてに適用} other {{count}か所の署名欄すべてに適用}}",
  "signature.legal":
    "{kind, select, initials {「適用」を選択すると、これをこの依頼におけるあなたの電子イニシャルとして採用したことになります。} other {「適用」を選択すると、これをこの依頼におけるあなたの電子署名として採用したことになります。}}",
  "signature.apply": "適用",

  "decline.title": "署名の辞退",
  "decline.description":
    "辞退したことが、その理由とともに送信者に通知されます。辞退後は、この依頼に署名できなくなります。",
  "decline.reason": "辞退の理由",
  "decline.characters": "{count, number} / {max, number} 文字",
  "decline.missing": "辞退の理由を送信者にお知らせください。",
  "decline.declining": "辞退しています…",

  "reassign.offer": "別の人が署名する必要がありますか？",
  "reassign.title": "別の人に割り当てる",
  "reassign.description":
    "代わりに署名するためのリンクが、その人にメールで送信されます。あなたのリンクは使用できなくなり、誰を選んだか、その理由が送信者に表示されます。",
  "reassign.name": "相手の氏名",
  "reassign.email": "相手のメールアドレス",
  "reassign.reason": "理由",
  "reassign.nameMissing": "代わりに署名する人の氏名を入力してください。",
  "reassign.emailMissing": "相手のメールアドレスを入力してください。リンクはこのアドレスに送信されます。",
  "reassign.reasonMissing": "送信者に理由をお知らせください。",
  "reassign.confirm": "割り当てる",
};
