import type { Catalogue } from "./en.js";

export const ar: Catalogue = {
  brand: "Countersign",
  "tooMany.title": "محاولات كثيرة جدًا",
  "tooMany.body":
    "فُتح عدد كبير جدًا من روابط التوقيع من عنوانك. انتظر {seconds, plural, zero {# ثانية} one {ثانية واحدة} two {ثانيتين} few {# ثوانٍ} many {# ثانية} other {# ثانية}} ثم افتح الرابط مرة أخرى.",
  "invalid.title": "رابط التوقيع هذا غير صالح",
  "invalid.body":
    "تحقّق من أنك فتحت العنوان كاملًا من رسالة البريد الإلكتروني، أو اطلب من المرسل إرساله مرة أخرى.",
  "gone.title": "لم يعد هذا الرابط صالحًا",
  "unavailable.title": "التوقيع غير متاح حاليًا",
  "unavailable.body": "تعذّر فتح مستندك. جرّب الرابط مرة أخرى بعد دقيقة.",
};
