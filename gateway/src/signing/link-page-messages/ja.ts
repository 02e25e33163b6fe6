import type { Catalogue } from "./en.js";

export const ja: Catalogue = {
  brand: "Countersign",
  "tooMany.title": "試行回数が多すぎます",
  "tooMany.body":
    "お使いのアドレスから開かれた署名リンクが多すぎます。{seconds, plural, other {#秒}}待ってから、もう一度リンクを開いてください。",
  "invalid.title": "この署名リンクは無効です",
  "invalid.body": "メールに記載されたアドレス全体を開いたかご確認いただくか、送信者に再送をお求めください。",
  "gone.title": "このリンクは使用できなくなりました",
  "unavailable.title": "現在、署名をご利用いただけません",
  "unavailable.body": "文書を開けませんでした。1分ほどしてから、もう一度リンクを開いてください。",
};
